"""Helpers for fieldcheck tests: run the real console entry, write rules and data files."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[4]
CORPUS = REPO / ".." / "shared" / "corpus"
ENTRY = "from officecli.fieldcheck.cli import main; main()"


class CliResult:
    def __init__(self, done: subprocess.CompletedProcess[str]) -> None:
        self.code = done.returncode
        self.stdout = done.stdout
        self.stderr = done.stderr

    @property
    def json(self) -> Any:
        return json.loads(self.stdout)


def run_cli(*args: str | Path, cwd: Path | None = None) -> CliResult:
    """Run `fieldcheck ARGS` through the console entry, as an agent would."""
    done = subprocess.run(
        [sys.executable, "-c", ENTRY, *map(str, args)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd,
        timeout=120,
        check=False,
    )
    return CliResult(done)


def write_csv(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.write_bytes(text.encode(encoding))
    return path


Findings = Callable[..., list[dict[str, str]]]
HEAD = "version: 1\nrules:\n"


def finding(
    rule_id: str,
    row: int,
    field: str,
    message: str,
    expected: str,
    actual: str,
    suggestion: str,
    severity: str = "error",
) -> dict[str, Any]:
    return {
        "rule_id": rule_id,
        "severity": severity,
        "message": message,
        "location": f"line {row}",
        "record": {"line": row},
        "field": field,
        "expected": expected,
        "actual": actual,
        "suggestion": suggestion,
    }
