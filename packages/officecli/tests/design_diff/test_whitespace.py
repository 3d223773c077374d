"""A change of whitespace alone is a change, said to be one; -w ignores it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Diff = Callable[..., tuple[int, dict[str, Any]]]


def _changes(report: dict[str, Any]) -> list[tuple[str, str, str, str, dict[str, str]]]:
    return [(f["location"], f["message"], f["expected"], f["actual"], f.get("details", {})) for f in report["findings"]]  # fmt: skip


def test_a_space_cleared_or_added_in_a_table_is_a_whitespace_only_change(diff: Diff) -> None:
    old = [["id", "name", "note"], ["1", "a", " "], ["2", "b", "x"], ["3", "c", "y"]]
    new = [["id", "name", "note"], ["1", "a", None], ["2", "b ", "x"], ["3", "c", "z"]]
    code, report = diff({"S": old}, {"S": new})
    only = {"change": "whitespace only"}
    assert (code, _changes(report)) == (
        1,
        [
            ("S!C2 (id=1)", "note changed (whitespace only)", " ", "", only),
            ("S!B3 (id=2)", "name changed (whitespace only)", "b", "b ", only),
            ("S!C4 (id=3)", "note changed", "y", "z", {}),
        ],
    )
    code, report = diff({"S": old}, {"S": new}, "-w")
    assert (code, _changes(report)) == (1, [("S!C4 (id=3)", "note changed", "y", "z", {})])


def test_a_labelled_value_turned_to_a_space_or_cleared_outside_tables(diff: Diff) -> None:
    table = [["id", "name"], ["1", "a"]]
    old = [["メモ", " "], ["メソッド", "GET"], [None], *table]
    new = [["メモ", None], ["メソッド", None], [None], *table]
    _, report = diff({"S": old}, {"S": new}, "--key", "id")
    assert _changes(report) == [
        ("S!B1 (メモ)", "(B) changed (whitespace only)", " ", "", {"change": "whitespace only"}),
        ("S!B2 (メソッド)", "(B) changed", "GET", "", {}),
    ]
