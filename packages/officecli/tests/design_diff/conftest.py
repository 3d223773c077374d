"""Fixtures for design-diff tests; helpers shared by the test modules live in officecli_testkit.design_diff_helpers."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from officecli_testkit.design_diff_helpers import Grid, write_book

from agentcli.main import run
from officecli.design_diff.commands import APP


@pytest.fixture
def diff(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> Callable[..., tuple[int, dict[str, Any]]]:
    """diff(before_sheets, after_sheets, *args) -> (exit code, report or envelope)."""

    def go(
        before: dict[str, Grid] | Path,
        after: dict[str, Grid] | Path,
        *args: str,
    ) -> tuple[int, dict[str, Any]]:
        old = before if isinstance(before, Path) else write_book(tmp_path / "before.xlsx", before)
        new = after if isinstance(after, Path) else write_book(tmp_path / "after.xlsx", after)
        code = run(APP, ["excel", "--before", str(old), "--after", str(new), *args])
        out = capsys.readouterr().out
        return code, json.loads(out) if out else {}  # -o FILE: nothing on stdout

    return go
