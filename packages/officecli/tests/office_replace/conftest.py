"""Fixtures for office-replace tests: the CLI in-process, rules files, generated documents."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from officecli_testkit.replace_helpers import Replace, run_replace


@pytest.fixture
def replace(capsys: pytest.CaptureFixture[str]) -> Replace:
    """replace(*argv) -> (exit code, parsed stdout) through agentcli.main.run."""

    def run(*args: str | Path) -> tuple[int, dict[str, Any]]:
        return run_replace(capsys, *args)

    return run
