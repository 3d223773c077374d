"""Fixtures for fieldcheck tests; helpers shared by the test modules live in officecli_testkit.fieldcheck_helpers."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from officecli_testkit.fieldcheck_helpers import write_csv

from officecli.fieldcheck.engine import Options
from officecli.fieldcheck.loader import load_rules
from officecli.fieldcheck.run import validate_data as validate


@pytest.fixture
def findings(tmp_path: Path) -> Callable[..., list[dict[str, str]]]:
    """findings(rules_yaml, csv_text) -> the findings as dicts, through the engine."""

    def run(rules: str, data: str, name: str = "data.csv", **options: Any) -> list[dict[str, str]]:
        rules_path = tmp_path / "rules.yaml"
        rules_path.write_text(rules, encoding="utf-8")
        data_path = write_csv(tmp_path / name, data)
        result = validate(load_rules(rules_path), data_path, Options(**options))
        return [f.to_json() for f in result.findings]

    return run


@pytest.fixture(scope="session", autouse=True)
def no_arrow_in_this_process() -> Iterator[None]:
    """PyArrow starts threads, and a process with other threads cannot fork: the forked
    readers' tests, later in the same run, would fall back and fail. Tests run the
    vectorised engine in a child (officecli_testkit.fieldcheck_vector_worker)."""
    yield
    assert "pyarrow" not in sys.modules, "a test imported PyArrow in the test process"
