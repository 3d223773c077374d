"""The Python API, used as a user imports it (issue 37): `validate(data, rules) -> Report`,
writing nothing, raising typed errors with the CLI's codes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from officecli_testkit.fieldcheck_helpers import run_cli, write_csv

from agentcli.report import Finding, Report
from officecli.fieldcheck import validate
from officecli.fieldcheck.errors import MissingColumnError, RulesFileError
from officecli.fieldcheck.loader import load_rules
from officecli.readers.tabular import TableReadError

RULES = "version: 1\nkey: id\nrules:\n  - {id: R1, type: range, field: amount, min: 0}\n"


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    data = write_csv(tmp_path / "d.csv", "id,amount\nE1,5\nE2,-1\n")
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES, encoding="utf-8")
    return data, rules


def test_validate_returns_the_report_the_cli_prints(files: tuple[Path, Path]) -> None:
    data, rules = files
    report = validate(data, rules)
    assert isinstance(report, Report)
    assert report.summary == {"error": 1, "warning": 0, "info": 0}
    assert report.findings == [
        Finding(
            rule_id="R1",
            severity="error",
            message="amount must be >= 0",
            location="line 3 (id=E2)",
            field="amount",
            expected=">= 0",
            actual="-1",
            suggestion="make amount >= 0",
            record={"line": 3, "key": {"id": "E2"}},
        )
    ]
    printed = run_cli("validate", data, "-r", rules).json
    assert printed == {**report.to_dict(), "schema_version": printed["schema_version"]}


def test_validate_takes_a_loaded_ruleset_and_a_key(files: tuple[Path, Path]) -> None:
    data, rules = files
    report = validate(data, load_rules(rules), key=["amount"], max_findings=0)
    assert (report.findings, report.meta["error_total"], report.meta["key"]) == ([], 1, "amount")


def test_validate_writes_nothing(files: tuple[Path, Path]) -> None:
    data, rules = files
    before = sorted(p.name for p in data.parent.iterdir())
    validate(data, rules)
    assert sorted(p.name for p in data.parent.iterdir()) == before


def test_errors_are_typed_with_the_cli_codes(files: tuple[Path, Path], tmp_path: Path) -> None:
    data, rules = files
    bad = tmp_path / "bad.yaml"
    bad.write_text("version: 2\nrules: []\n", encoding="utf-8")
    with pytest.raises(RulesFileError) as rules_error:
        validate(data, bad)
    assert (rules_error.value.code, rules_error.value.exit_code) == ("INVALID_RULES", 2)
    with pytest.raises(MissingColumnError) as column_error:
        validate(data, rules, key=["ID"])
    assert (column_error.value.code, column_error.value.data["closest"]) == (
        "MISSING_COLUMN",
        "id",
    )
    with pytest.raises(TableReadError) as input_error:
        validate(tmp_path / "missing.csv", rules)
    assert input_error.value.code == "INVALID_INPUT"
    cli = run_cli("validate", tmp_path / "missing.csv", "-r", rules).json
    assert cli["error_code"] == input_error.value.code


def test_importing_the_package_loads_no_engine() -> None:
    code = (
        "import sys, officecli.fieldcheck as f; "
        "print(sorted(m for m in sys.modules if m.startswith('officecli.fieldcheck')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['officecli.fieldcheck']"
