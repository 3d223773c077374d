"""Helpers for the config tests: write a project config, load it, run the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from procler.config.load import check_config

PROCLER = [sys.executable, "-c", "from procler.cli import main; main()"]


def write_config(root: Path, text: str) -> Path:
    """Write `text` (dedented) as root/.procler/config.yaml and return its path."""
    folder = root / ".procler"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "config.yaml"
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def errors_of(path: Path, environ: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Every finding of the config at path, in file order."""
    _, findings = check_config(str(path), environ or {})
    return findings.as_dicts()


def capped(memory_mib: int) -> list[str]:
    """The procler command line in a Python whose address space is capped (RLIMIT_AS, set
    before anything is imported), so that a regression that balloons fails with
    MemoryError (exit 3) instead of exhausting the machine."""
    limit = memory_mib << 20
    return [
        sys.executable,
        "-c",
        f"import resource; resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))\n"
        "from procler.cli import main; main()",
    ]


def run_procler(
    cwd: Path, *args: str, env: dict[str, str] | None = None, memory_mib: int | None = None
) -> tuple[int, dict[str, Any]]:
    """Run procler in cwd (its memory capped when memory_mib is given); (exit code,
    parsed envelope)."""
    full_env = {k: v for k, v in os.environ.items() if k != "PROCLER_CONFIG"}
    full_env.update(env or {})
    command = PROCLER if memory_mib is None else capped(memory_mib)
    proc = subprocess.run(
        [*command, *args], cwd=cwd, env=full_env, capture_output=True, text=True, timeout=60
    )
    assert proc.stdout, proc.stderr
    return proc.returncode, json.loads(proc.stdout)
