"""Presets grade a change by its direction: narrowing a size, a type or turning a column
required is an error; widening is a warning or info; the finding says which."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from officecli.design_diff.grading import size_direction
from officecli.design_diff.presets import load_preset

Diff = Callable[..., tuple[int, dict[str, Any]]]
HEADER = ["No", "論理名", "物理名", "データ型", "桁数", "NOT NULL", "NULL許可"]


def _table(kind: str, length: str, not_null: str = "", nullable: str = "○") -> list[list[Any]]:
    return [HEADER, [1, "メール", "email", kind, length, not_null, nullable]]


def _graded(report: dict[str, Any]) -> list[tuple[str, str, str, dict[str, str]]]:
    return [(f["field"], f["message"], f["severity"], f.get("details", {})) for f in report["findings"]]  # fmt: skip


def test_a_length_widened_is_info_and_narrowed_is_an_error(diff: Diff) -> None:
    _, wider = diff({"T": _table("varchar", "255")}, {"T": _table("varchar", "320")}, "--type", "table")  # fmt: skip
    _, narrower = diff({"T": _table("varchar", "320")}, {"T": _table("varchar", "255")}, "--type", "table")  # fmt: skip
    assert _graded(wider) == [("桁数", "桁数 widened", "info", {"direction": "widened"})]
    assert _graded(narrower) == [("桁数", "桁数 narrowed", "error", {"direction": "narrowed"})]


def test_a_type_narrowed_along_its_ladder_and_sizes_in_brackets(diff: Diff) -> None:
    old = [HEADER, [1, "ID", "id", "bigint", "", "", ""], [2, "名", "name", "VARCHAR(20)", "", "", ""], [3, "額", "amount", "decimal(10,2)", "", "", ""], [4, "日", "day", "string", "", "", ""]]  # fmt: skip
    new = [HEADER, [1, "ID", "id", "int", "", "", ""], [2, "名", "name", "varchar(40)", "", "", ""], [3, "額", "amount", "decimal(12,1)", "", "", ""], [4, "日", "day", "date", "", "", ""]]  # fmt: skip
    _, report = diff({"T": old}, {"T": new}, "--type", "table")
    assert [(f["location"], f["message"], f["severity"]) for f in report["findings"]] == [
        ("T!D2 (物理名=id)", "データ型 narrowed", "error"),  # bigint -> int
        ("T!D3 (物理名=name)", "データ型 widened", "warning"),  # varchar(20) -> varchar(40)
        ("T!D4 (物理名=amount)", "データ型 narrowed", "error"),  # a decimal place lost
        ("T!D5 (物理名=day)", "データ型 changed", "error"),  # no direction: the preset's changed
    ]


def test_required_turned_on_is_an_error_and_off_is_info(diff: Diff) -> None:
    _, on = diff({"T": _table("int", "4", "", "○")}, {"T": _table("int", "4", "○", "")}, "--type", "table")  # fmt: skip
    _, off = diff({"T": _table("int", "4", "○", "")}, {"T": _table("int", "4", "", "○")}, "--type", "table")  # fmt: skip
    assert [(f["field"], f["severity"], f["details"]["direction"]) for f in on["findings"]] == [
        ("NOT NULL", "error", "narrowed"),
        ("NULL許可", "error", "narrowed"),
    ]
    assert [(f["field"], f["severity"], f["details"]["direction"]) for f in off["findings"]] == [
        ("NOT NULL", "info", "widened"),
        ("NULL許可", "info", "widened"),
    ]


def test_the_api_preset_grades_lengths_types_and_required_items(diff: Diff) -> None:
    header = ["No", "物理名", "論理名", "型", "必須", "桁数"]
    old = [header, [1, "id", "ID", "integer", "", 10], [2, "name", "名前", "string", "○", 50]]
    new = [header, [1, "id", "ID", "number", "○", 10], [2, "name", "名前", "string", "", 40]]
    _, report = diff({"API": old}, {"API": new}, "--type", "api")
    assert [(f["location"], f["message"], f["severity"]) for f in report["findings"]] == [
        ("API!D2 (物理名=id)", "型 widened", "warning"),
        ("API!E2 (物理名=id)", "必須 narrowed", "error"),
        ("API!E3 (物理名=name)", "必須 widened", "info"),
        ("API!F3 (物理名=name)", "桁数 narrowed", "error"),
    ]


@pytest.mark.parametrize(
    ("old", "new", "direction"),
    [("255", "320", "widened"), ("320", "255", "narrowed"), ("10,2", "12,2", "widened"),
     ("10,2", "12,1", "narrowed"), ("１０", "20", "widened"), ("10", "10", ""), ("", "10", ""),
     ("10", "可変", ""), ("10,2", "10", "")],
)  # fmt: skip
def test_size_direction(old: str, new: str, direction: str) -> None:
    assert size_direction(old, new) == direction


def test_presets_show_their_grading() -> None:
    table = load_preset("table", None)
    assert (table.severity("cell.changed", "length", "widened"), table.severity("cell.changed", "length", "narrowed"), table.severity("cell.changed", "length")) == ("info", "error", "error")  # fmt: skip
    assert table.grading.direction("type", "INT8", "smallint") == "narrowed"


def test_a_team_preset_grades_its_own_roles_and_bad_grading_is_exit_2(
    diff: Diff, tmp_path: Path
) -> None:
    team = tmp_path / "team.yaml"
    team.write_text(
        "columns: {code: [Code], size: [Size]}\nkeys: [code]\n"
        "severity: {narrowed: {size: error}, widened: {size: info}}\n"
        "grading: {sizes: [size]}\n",
        encoding="utf-8",
    )
    old, new = [["Code", "Size"], ["a", "10"]], [["Code", "Size"], ["a", "5"]]
    _, report = diff({"S": old}, {"S": new}, "--preset-file", str(team))
    assert [(f["severity"], f["details"]) for f in report["findings"]] == [("error", {"direction": "narrowed"})]  # fmt: skip
    team.write_text("columns: {code: [Code]}\ngrading: {sizes: [nope]}\n", encoding="utf-8")
    code, env = diff({"S": old}, {"S": new}, "--preset-file", str(team))
    assert (code, env["error_code"], env["error"].rpartition("/")[2]) == (2, "INVALID_PRESET", "team.yaml:2:19: 'nope' is not a role of `columns`")  # fmt: skip
