"""Columns matched by header, role and content; sheets by name, then by content."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from officecli_testkit.design_diff_helpers import api_rows, rules

Diff = Callable[..., tuple[int, dict[str, Any]]]


def _drop(rows: list[list[Any]], col: int) -> list[list[Any]]:
    return [r[:col] + r[col + 1 :] for r in rows]


def test_column_added_and_removed(diff: Diff) -> None:
    old = api_rows(3)
    new = [[*r, v] for r, v in zip(_drop(api_rows(3), 5), ["説明", "a", "b", "c"], strict=True)]
    _, report = diff({"API": old}, {"API": new}, "--type", "api")
    assert rules(report) == [("column.added", "API!F1"), ("column.removed", "API!F1")]
    assert [(f["field"], f["severity"]) for f in report["findings"]] == [
        ("説明", "warning"),
        ("桁数", "error"),
    ]


def test_renamed_column_found_by_content_still_reports_its_changed_cells(diff: Diff) -> None:
    new = api_rows(6)
    new[0][2] = "日本語名"
    new[2][2] = "変更"
    _, report = diff({"API": api_rows(6)}, {"API": new}, "--type", "api")
    assert rules(report) == [("column.renamed", "API!C1"), ("cell.changed", "API!C3 (物理名=f2)")]
    assert (report["findings"][0]["expected"], report["findings"][0]["actual"]) == (
        "論理名",
        "日本語名",
    )
    assert report["findings"][1]["field"] == "日本語名"


def test_key_column_renamed_within_its_role(diff: Diff) -> None:
    new = api_rows(3)
    new[0][1] = "項目ID"
    _, report = diff({"API": api_rows(3)}, {"API": new}, "--type", "api")
    assert rules(report) == [("column.renamed", "API!B1")]


def test_moved_column(diff: Diff) -> None:
    old = [["Code", "A", "B", "C"], ["k1", 1, 2, 3], ["k2", 4, 5, 6]]
    new = [["Code", "B", "C", "A"], ["k1", 2, 3, 1], ["k2", 5, 6, 4]]
    _, report = diff({"S": old}, {"S": new})
    assert rules(report) == [("column.moved", "S!D1")]
    assert (report["findings"][0]["expected"], report["findings"][0]["actual"]) == ("B", "D")


def test_sheets_added_removed_and_renamed(diff: Diff) -> None:
    old = {"ユーザー取得": api_rows(4), "旧": [["K", "V"], ["a", 1]]}
    new = {"ユーザー照会": api_rows(4), "新": [["X", "Y"], ["z", 9]]}
    _, report = diff(old, new, "--type", "api")
    assert rules(report) == [
        ("sheet.renamed", "ユーザー照会"),
        ("sheet.added", "新"),
        ("sheet.removed", "旧"),
    ]
    assert [f["severity"] for f in report["findings"]] == ["warning", "warning", "error"]
    meta = report["meta"]
    assert (meta["sheets_added"], meta["sheets_removed"], meta["sheets_renamed"]) == (1, 1, 1)


def test_sheet_option_limits_the_comparison(diff: Diff) -> None:
    old = {"A": api_rows(2), "B": api_rows(2)}
    new = {"A": api_rows(2), "B": api_rows(3)}
    code, report = diff(old, new, "--type", "api", "--sheet", "A")
    assert (code, report["findings"], report["meta"]["sheets"]) == (0, [], 1)


def test_several_tables_per_sheet_are_compared_separately(diff: Diff) -> None:
    def sheet(day: str) -> list[list[Any]]:
        rows: list[list[Any]] = [[*r, None, None] for r in api_rows(2)]
        rows[0] += ["版", "日付"]
        rows[1] += ["1.0", "2026-01-01"]
        rows[2] += ["1.1", day]
        return rows

    _, report = diff({"S": sheet("2026-02-01")}, {"S": sheet("2026-02-02")}, "--type", "api")
    # the revision table names no key (物理名): labelled cells beside the table, by row
    assert rules(report) == [("cell.changed", "S!J3 (1.1)")]
    assert report["meta"]["tables"] == 1
    _, report = diff({"S": sheet("2026-02-01")}, {"S": sheet("2026-02-02")})
    assert rules(report) == [("cell.changed", "S!J3 (版=1.1)")]  # generic: every block
    assert report["meta"]["tables"] == 2


def test_empty_columns_are_not_taken_for_a_rename(diff: Diff) -> None:
    old = [["Code", "Format", "V"], ["a", None, 1], ["b", None, 2]]
    new = [["Code", "Default", "V"], ["a", None, 1], ["b", None, 2]]
    _, report = diff({"S": old}, {"S": new})
    assert rules(report) == [("column.added", "S!B1"), ("column.removed", "S!B1")]


def test_a_table_inserted_above_one_with_the_same_header(diff: Diff) -> None:
    header = ["物理名", "型"]
    request = [header, ["id", "string"], ["name", "string"]]
    response = [header, ["status", "string"], ["total", "integer"]]
    old = [*response]
    new = [*request, [None], *response]
    new[6] = ["total", "number"]  # a new list: `old` shares the others
    _, report = diff({"S": old}, {"S": new}, "--type", "api")
    assert rules(report) == [
        ("row.added", "S!A2 (物理名=id)"),
        ("row.added", "S!A3 (物理名=name)"),
        ("cell.changed", "S!B7 (物理名=total)"),
    ]
