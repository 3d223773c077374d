"""Fixtures for office-replace tests: the CLI in-process, rules files, generated documents."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import pytest
from replace_helpers import Replace, run_replace


@pytest.fixture
def replace(capsys: pytest.CaptureFixture[str]) -> Replace:
    """replace(*argv) -> (exit code, parsed stdout) through agentcli.main.run."""

    def run(*args: str | Path) -> tuple[int, dict]:  # type: ignore[type-arg]
        return run_replace(capsys, *args)

    return run
