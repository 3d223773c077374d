"""Findings name their record (issue 34): line numbers with a stated meaning, key values,
and blank lines reported rather than dropped."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from officecli_testkit.fieldcheck_helpers import run_cli, write_csv
from officecli_testkit.sheets import active_sheet

from officecli.fieldcheck.findings import LINES_MEANING

RULES = "version: 1\nrules:\n  - {id: R1, type: range, field: amount, min: 0}\n"
DATA = "id,amount\nE0001,5\nE0002,-1\nE0003,7\nE0004,-2\n"


def _rules(tmp_path: Path, text: str = RULES) -> Path:
    path = tmp_path / "rules.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_key_option_names_the_record_in_location_and_record(tmp_path: Path) -> None:
    data = write_csv(tmp_path / "d.csv", DATA)
    report = run_cli("validate", data, "-r", _rules(tmp_path), "--key", "id").json
    assert [(f["location"], f["record"]) for f in report["findings"]] == [
        ("line 3 (id=E0002)", {"line": 3, "key": {"id": "E0002"}}),
        ("line 5 (id=E0004)", {"line": 5, "key": {"id": "E0004"}}),
    ]
    assert report["meta"]["key"] == "id"
    assert report["meta"]["lines"] == LINES_MEANING


def test_key_in_the_rules_file_with_two_columns(tmp_path: Path) -> None:
    data = write_csv(tmp_path / "d.csv", "dept,no,amount\nsales,1,3\nsales,2,-4\n")
    rules = _rules(tmp_path, "version: 1\nkey: [dept, no]\n" + RULES.split("\n", 1)[1])
    report = run_cli("validate", data, "-r", rules).json
    assert [(f["location"], f["record"]) for f in report["findings"]] == [
        ("line 3 (dept=sales, no=2)", {"line": 3, "key": {"dept": "sales", "no": "2"}})
    ]


def test_without_a_key_the_line_alone_with_its_meaning(tmp_path: Path) -> None:
    data = write_csv(tmp_path / "d.csv", DATA)
    report = run_cli("validate", data, "-r", _rules(tmp_path)).json
    assert [(f["location"], f["record"]) for f in report["findings"]] == [
        ("line 3", {"line": 3}),
        ("line 5", {"line": 5}),
    ]
    assert "header being line 1" in report["meta"]["lines"]


def test_a_record_spanning_lines_has_the_number_of_its_first_line(tmp_path: Path) -> None:
    data = write_csv(tmp_path / "d.csv", 'id,note,amount\nE1,"two\nlines",-1\nE2,x,-2\n')
    report = run_cli("validate", data, "-r", _rules(tmp_path), "--key", "id").json
    assert [f["location"] for f in report["findings"]] == ["line 2 (id=E1)", "line 4 (id=E2)"]


@pytest.mark.parametrize(
    ("key", "code", "closest"),
    [("ID", "MISSING_COLUMN", "id"), ("id,amout", "MISSING_COLUMN", "amount")],
)
def test_an_unknown_key_column_is_exit_2(tmp_path: Path, key: str, code: str, closest: str) -> None:
    data = write_csv(tmp_path / "d.csv", DATA)
    result = run_cli("validate", data, "-r", _rules(tmp_path), "--key", key)
    assert (result.code, result.json["error_code"], result.json["data"]["closest"]) == (
        2,
        code,
        closest,
    )


def test_a_bad_key_in_the_rules_file_is_a_rules_error_at_its_line(tmp_path: Path) -> None:
    rules = _rules(tmp_path, "version: 1\nkey: {a: 1}\nrules: []\n")
    result = run_cli("check-rules", rules)
    assert (result.code, result.json["error"]) == (
        2,
        "rules.yaml:2:6: key must be a column name or a list of column names",
    )


def test_blank_line_of_a_one_column_csv_is_an_info_finding(tmp_path: Path) -> None:
    rules = _rules(tmp_path, "version: 1\nrules:\n  - {id: R1, type: required, field: name}\n")
    data = write_csv(tmp_path / "d.csv", "name\nAda\n\nBob\n")
    result = run_cli("validate", data, "-r", rules)
    report = result.json
    assert result.code == 0  # info does not fail the run
    assert report["meta"]["rows"] == 2
    assert report["findings"] == [
        {
            "rule_id": "row.blank",
            "severity": "info",
            "message": "line 3 is blank",
            "location": "line 3",
            "field": "",
            "expected": "a record",
            "actual": "",
            "suggestion": "remove the blank line, or fill in the record it stands for",
            "record": {"line": 3},
        }
    ]


def test_blank_lines_sit_in_line_order_among_the_other_findings(tmp_path: Path) -> None:
    data = write_csv(tmp_path / "d.csv", "id,amount\r\nE1,-1\r\n\r\nE2,-2\r\n\r\n")
    report = run_cli("validate", data, "-r", _rules(tmp_path)).json
    assert [(f["rule_id"], f["location"]) for f in report["findings"]] == [
        ("R1", "line 2"),
        ("row.blank", "line 3"),
        ("R1", "line 4"),
        ("row.blank", "line 5"),
    ]


def test_blank_jsonl_line_and_blank_sheet_row(tmp_path: Path) -> None:
    jsonl = tmp_path / "d.jsonl"
    jsonl.write_text('{"id": "E1", "amount": 1}\n\n{"id": "E2", "amount": -1}\n', "utf-8")
    report = run_cli("validate", jsonl, "-r", _rules(tmp_path)).json
    assert [(f["rule_id"], f["location"]) for f in report["findings"]] == [
        ("row.blank", "line 2"),
        ("R1", "line 3"),
    ]
    book = openpyxl.Workbook()
    sheet = active_sheet(book)
    for row in (["id", "amount"], ["E1", 1], [None, None], ["E2", -1], [], ["E3", -2]):
        sheet.append(row)
    sheet["A5"] = None  # a row the sheet holds with an empty cell
    book.save(tmp_path / "d.xlsx")
    report = run_cli("validate", tmp_path / "d.xlsx", "-r", _rules(tmp_path), "--key", "id").json
    assert [(f["rule_id"], f["location"]) for f in report["findings"]] == [
        ("row.blank", "line 3"),
        ("R1", "line 4 (id=E2)"),
        ("row.blank", "line 5"),
        ("R1", "line 6 (id=E3)"),
    ]
