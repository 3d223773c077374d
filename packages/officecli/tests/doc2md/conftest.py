"""Fixtures of the doc2md tests: the corpus, and doc2md run through its console entry
(officecli_testkit.doc2md_helpers has their constants)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from officecli_testkit.doc2md_helpers import CORPUS, ENTRY, Rules, Run


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
def rules() -> Rules:
    """The rule ids of a report's findings, optionally of one severity."""

    def pick(report: dict[str, Any], severity: str | None = None) -> list[str]:
        return [f["rule_id"] for f in report["findings"] if severity in (None, f["severity"])]

    return pick
