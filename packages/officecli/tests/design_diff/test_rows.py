"""Rows joined on their key: inserts, removals, moves, changed cells, duplicate and blank keys."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from officecli_testkit.design_diff_helpers import api_rows, rules

Diff = Callable[..., tuple[int, dict[str, Any]]]


def test_identical_workbooks_exit_0_with_zero_counts(diff: Diff) -> None:
    code, report = diff({"API": api_rows()}, {"API": api_rows()}, "--type", "api")
    assert (code, report["findings"], report["summary"]) == (
        0,
        [],
        {"error": 0, "warning": 0, "info": 0},
    )
    assert report["meta"]["rows_changed"] == 0 and report["meta"]["tables"] == 1


def test_row_inserted_at_top_changes_nothing_below(diff: Diff) -> None:
    new = api_rows(30)
    new.insert(1, [1, "top", "先頭", "integer", "", 3])
    code, report = diff({"API": api_rows(30)}, {"API": new}, "--type", "api")
    assert code == 1
    assert rules(report) == [("row.added", "API!B2 (物理名=top)")]
    finding = report["findings"][0]
    assert finding["severity"] == "info"  # an optional item added: not breaking
    assert finding["actual"] == "物理名=top; 論理名=先頭; 型=integer; 桁数=3"
    assert report["meta"]["rows_added"] == 1 and report["meta"]["rows_moved"] == 0


def test_changed_cell_is_one_finding_with_old_and_new_value(diff: Diff) -> None:
    new = api_rows()
    new[3][3] = "integer"
    new[3][2] = "項目3改"
    _, report = diff({"API": api_rows()}, {"API": new}, "--type", "api")
    assert [f | {"message": ""} for f in report["findings"]] == [
        {"rule_id": "cell.changed", "severity": "warning", "message": "", "location": "API!C4 (物理名=f3)", "field": "論理名", "expected": "項目3", "actual": "項目3改", "suggestion": ""},
        {"rule_id": "cell.changed", "severity": "error", "message": "", "location": "API!D4 (物理名=f3)", "field": "型", "expected": "string", "actual": "integer", "suggestion": ""},
    ]  # fmt: skip
    assert report["meta"]["rows_changed"] == 1 and report["meta"]["cells_changed"] == 2


def test_removed_row_is_an_error_for_api_and_placed_in_order(diff: Diff) -> None:
    new = api_rows()
    new[4][3] = "integer"
    del new[2]
    _, report = diff({"API": api_rows()}, {"API": new}, "--type", "api")
    assert rules(report) == [
        ("row.removed", "API!B3 (物理名=f2)"),
        ("cell.changed", "API!D4 (物理名=f4)"),
    ]
    assert report["findings"][0]["severity"] == "error"
    assert (
        report["findings"][0]["expected"] == "物理名=f2; 論理名=項目2; 型=string; 必須=○; 桁数=20"
    )


def test_moved_row_is_only_a_move(diff: Diff) -> None:
    new = api_rows(10)
    row = new.pop(2)  # f2 goes to the end
    new.append(row)
    _, report = diff({"API": api_rows(10)}, {"API": new}, "--type", "api")
    assert rules(report) == [("row.moved", "API!B11 (物理名=f2)")]
    assert (report["findings"][0]["expected"], report["findings"][0]["actual"]) == (
        "row 3",
        "row 11",
    )


def test_duplicate_key_names_both_rows_then_compares_by_occurrence(diff: Diff) -> None:
    old = [*api_rows(3), [4, "f1", "重複", "string", "", 5]]
    new = [*api_rows(3), [4, "f1", "重複", "integer", "", 5]]
    _, report = diff({"API": old}, {"API": new}, "--type", "api")
    assert rules(report) == [
        ("key.duplicate", "API!B5 (物理名=f1)"),  # once: the key repeats in both versions
        ("cell.changed", "API!D5 (物理名=f1)"),
    ]
    assert report["findings"][0]["message"] == (
        "key 物理名=f1 appears twice in the after file: rows 2 and 5; compared by occurrence"
    )
    assert report["findings"][0]["severity"] == "error"
    assert report["findings"][1]["expected"] == "string"


def test_duplicate_only_in_the_before_file_is_reported_for_it(diff: Diff) -> None:
    old = [*api_rows(3), [4, "f1", "重複", "string", "", 5]]
    _, report = diff({"API": old}, {"API": api_rows(3)}, "--type", "api")
    assert [(f["rule_id"], f["message"]) for f in report["findings"]] == [
        (
            "key.duplicate",
            "key 物理名=f1 appears twice in the before file: rows 2 and 5; compared by occurrence",
        ),
        ("row.removed", "row 物理名=f1 removed"),
    ]


def test_blank_key_rows_are_matched_by_content(diff: Diff) -> None:
    old = [*api_rows(3), [4, None, "備考行", "string", "", 99]]
    new = [*api_rows(3), [4, None, "備考行", "string", "", 100]]
    new.insert(1, [0, "new", "新", "string", "○", 1])
    _, report = diff({"API": old}, {"API": new}, "--type", "api")
    assert rules(report) == [
        ("row.added", "API!B2 (物理名=new)"),
        ("key.blank", "API!B6 (物理名=)"),
        ("cell.changed", "API!F6 (物理名=)"),
    ]
    assert report["findings"][0]["severity"] == "warning"  # a required item added
    assert (report["findings"][2]["expected"], report["findings"][2]["actual"]) == ("99", "100")


def test_generic_preset_keys_on_first_column_and_fail_on(diff: Diff) -> None:
    old = [["Code", "Price"], ["A", 1], ["B", 2]]
    new = [["Code", "Price"], ["B", 3], ["A", 1]]
    code, report = diff({"S": old}, {"S": new}, "--fail-on", "error")
    assert code == 0
    assert rules(report) == [("row.moved", "S!A2 (Code=B)"), ("cell.changed", "S!B2 (Code=B)")]
    assert [f["severity"] for f in report["findings"]] == ["warning", "warning"]


def test_a_change_left_of_the_key_column_is_a_cell_change(diff: Diff) -> None:
    """Without a scope column (generic), the first column is a value, not part of the key."""
    old = [["名前", "ID", "値"], ["a", "k1", 1], ["b", "k2", 2]]
    new = [["名前", "ID", "値"], ["a2", "k1", 1], ["b", "k2", 2]]
    _, report = diff({"S": old}, {"S": new}, "--key", "ID")
    assert rules(report) == [("cell.changed", "S!A2 (ID=k1)")]


def test_markdown_report_written_to_a_file(tmp_path: Path, diff: Diff) -> None:
    new = api_rows()
    new[2][3] = "integer"
    out = tmp_path / "diff.md"
    code, stdout = diff(
        {"API": api_rows()}, {"API": new}, "--type", "api", "-f", "markdown", "-o", str(out)
    )
    lines = out.read_text("utf-8").splitlines()
    assert (code, stdout) == (1, {})
    assert (
        "| error | cell.changed | API!D3 (物理名=f2) | 型 | 型 changed | string | integer |  |"
        in lines
    )
    assert "- **cells_changed**: 1" in lines
