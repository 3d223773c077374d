"""A renamed key is one row.renamed finding (old key, new key, what else changed), not a
row removed plus a row added; --no-renamed-rows turns that off; the key column moving
while another column goes is still a diff of the same rows."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from officecli_testkit.design_diff_helpers import rules

Diff = Callable[..., tuple[int, dict[str, Any]]]
HEADER = ["No", "物理名", "論理名", "型", "桁数"]


def _users(*rows: list[Any]) -> list[list[Any]]:
    base = [[1, "id", "ID", "bigint", 20], [2, "name", "氏名", "varchar", 100], [3, "email", "メール", "varchar", 255]]  # fmt: skip
    return [HEADER, *(rows or base)]


def test_a_renamed_key_is_one_finding_with_the_old_and_new_key(diff: Diff) -> None:
    new = _users([1, "id", "ID", "bigint", 20], [2, "full_name", "氏名", "varchar", 100], [3, "email", "メール", "varchar", 255])  # fmt: skip
    code, report = diff({"T": _users()}, {"T": new}, "--type", "table")
    assert (code, report["findings"]) == (
        1,
        [
            {
                "rule_id": "row.renamed",
                "severity": "error",
                "message": "row 物理名=name renamed to 物理名=full_name",
                "location": "T!B3 (物理名=full_name)",
                "field": "物理名",
                "expected": "物理名=name",
                "actual": "物理名=full_name",
                "suggestion": "",
                "details": {"old_key": "物理名=name", "new_key": "物理名=full_name"},
            }
        ],
    )
    meta = report["meta"]
    assert (meta["rows_renamed"], meta["columns_renamed"], meta["rows_added"], meta["rows_removed"]) == (1, 0, 0, 0)  # fmt: skip


def test_a_rename_names_the_values_that_also_changed(diff: Diff) -> None:
    new = _users([1, "id", "ID", "bigint", 20], [2, "full_name", "氏名", "varchar", 200], [3, "email", "メール", "varchar", 255])  # fmt: skip
    _, report = diff({"T": _users()}, {"T": new}, "--type", "table")
    finding = report["findings"][0]
    assert (finding["rule_id"], finding["details"]["also_changed"]) == ("row.renamed", "桁数 100 -> 200 (widened)")  # fmt: skip
    assert finding["message"] == "row 物理名=name renamed to 物理名=full_name; also changed: 桁数 100 -> 200 (widened)"  # fmt: skip


def test_rows_unlike_or_far_apart_stay_removed_and_added(diff: Diff) -> None:
    unlike = _users([1, "id", "ID", "bigint", 20], [2, "memo", "備考", "text", ""], [3, "email", "メール", "varchar", 255])  # fmt: skip
    _, report = diff({"T": _users()}, {"T": unlike}, "--type", "table")
    assert [f["rule_id"] for f in report["findings"]] == ["row.removed", "row.added"]
    far: list[list[Any]] = [HEADER, *[[i, f"c{i}", f"項目{i}", "int", 4] for i in range(8)]]
    moved = [list(r) for r in far]
    moved[1][1] = "renamed"  # same values as c0, but moved four rows down
    moved.insert(6, moved.pop(1))
    _, report = diff({"T": far}, {"T": moved}, "--type", "table")
    assert "row.renamed" not in [f["rule_id"] for f in report["findings"]]


def test_no_renamed_rows_reports_a_removal_and_an_addition(diff: Diff) -> None:
    new = _users([1, "id", "ID", "bigint", 20], [2, "full_name", "氏名", "varchar", 100], [3, "email", "メール", "varchar", 255])  # fmt: skip
    _, report = diff({"T": _users()}, {"T": new}, "--type", "table", "--no-renamed-rows")
    assert rules(report) == [("row.removed", "T!B3 (物理名=name)"), ("row.added", "T!B3 (物理名=full_name)")]  # fmt: skip
    assert report["meta"]["rows_renamed"] == 0


def test_key_column_moved_and_another_column_removed(diff: Diff) -> None:
    old = [["id", "name", "age", "city"], ["1", "Ann", "30", "Oslo"], ["2", "Bob", "40", "Rome"], ["3", "Cy", "50", "Lima"], ["4", "Di", "60", "Kyiv"]]  # fmt: skip
    new = [["name", "id", "city"], *[[r[1], r[0], r[3]] for r in old[1:]]]
    new[3][2] = "Lyon"
    for args in ((), ("--key", "id")):
        _, report = diff({"S": old}, {"S": new}, *args)
        assert rules(report) == [
            ("column.moved", "S!A1"),
            ("column.removed", "S!C1"),
            ("cell.changed", "S!C4 (id=3)"),
        ], args
