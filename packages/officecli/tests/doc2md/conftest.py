"""Shared helpers: the corpus location and running doc2md through its console entry."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # the helper modules beside the tests (scans)

REPO = Path(__file__).resolve().parents[4]
CORPUS = REPO / ".." / "shared" / "corpus"
ENTRY = "from officecli.doc2md.cli import main; main()"

Run = Callable[..., tuple[int, dict[str, Any]]]


@pytest.fixture
def corpus() -> Path:
    return CORPUS


@pytest.fixture
def run_doc2md() -> Run:
    def run(*args: str | Path) -> tuple[int, dict[str, Any]]:
        proc = subprocess.run(
            [sys.executable, "-c", ENTRY, *map(str, args)],
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
        return proc.returncode, json.loads(proc.stdout)

    return run


@pytest.fixture
def rules() -> Callable[..., list[str]]:
    """The rule ids of a report's findings, optionally of one severity."""

    def pick(report: dict[str, Any], severity: str | None = None) -> list[str]:
        return [f["rule_id"] for f in report["findings"] if severity in (None, f["severity"])]

    return pick
