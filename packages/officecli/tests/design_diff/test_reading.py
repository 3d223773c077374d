"""Reading design sheets: headers (two-level, merged, found below a title), normalisation,
furigana, formulas vs cached values."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from officecli_testkit.design_diff_helpers import api_rows, patch_part, rules, write_book

Diff = Callable[..., tuple[int, dict[str, Any]]]


def _money(tax: int) -> list[list[Any]]:
    return [
        ["コード", "金額", None, "備考"],
        [None, "税抜", "税込", None],
        ["A", 100, 110, "x"],
        ["B", 200, tax, "y"],
    ]


def test_two_level_merged_header_names_the_field(tmp_path: Path, diff: Diff) -> None:
    merges = {"S": ["B1:C1", "A1:A2", "D1:D2"]}
    old = write_book(tmp_path / "old.xlsx", {"S": _money(220)}, merges)
    new = write_book(tmp_path / "new.xlsx", {"S": _money(221)}, merges)
    _, report = diff(old, new)
    assert rules(report) == [("cell.changed", "S!C4 (コード=B)")]
    assert report["findings"][0]["field"] == "金額/税込"


def test_header_below_a_title_and_labelled_cells(diff: Diff) -> None:
    def sheet(length: int) -> list[list[Any]]:
        rows = api_rows(2)
        rows[2][5] = length
        return [["API定義書"], ["メソッド", "GET"], [None], *rows]

    _, report = diff({"S": sheet(20)}, {"S": sheet(30)}, "--type", "api")
    assert rules(report) == [("cell.changed", "S!F6 (物理名=f2)")]


def test_cells_outside_tables_are_compared_by_their_label(diff: Diff) -> None:
    def sheet(title: str, method: str) -> list[list[Any]]:
        return [[title], ["メソッド", method], *api_rows(2)]

    _, report = diff(
        {"S": sheet("API定義書", "GET")}, {"S": sheet("API定義書", "POST")}, "--type", "api"
    )
    assert [
        (f["rule_id"], f["location"], f["expected"], f["actual"]) for f in report["findings"]
    ] == [("cell.changed", "S!B2 (メソッド)", "GET", "POST")]
    assert report["meta"]["tables"] == 1


def test_a_sheet_without_tables_is_compared_by_its_cells(diff: Diff) -> None:
    old = {"API": api_rows(2), "表紙": [["版数", "1.0"], ["作成日"]]}
    new = {"API": api_rows(2), "表紙": [["版数", "1.1"], ["作成日"]]}
    _, report = diff(old, new, "--type", "api")
    assert [(f["location"], f["expected"], f["actual"]) for f in report["findings"]] == [
        ("表紙!B1 (版数)", "1.0", "1.1")
    ]


def test_header_row_option(diff: Diff) -> None:
    def sheet(v: int) -> list[list[Any]]:
        return [["改訂", "2026"], ["キー", "値"], ["a", v]]

    _, report = diff({"S": sheet(1)}, {"S": sheet(2)}, "--header-row", "2")
    assert rules(report) == [("cell.changed", "S!B3 (キー=a)")]


def test_section_rows_scope_the_key(diff: Diff) -> None:
    def sheet(kind: str) -> list[list[Any]]:
        head, *_ = api_rows(1)
        return [
            head,
            ["リクエスト"],
            [1, "id", "ID", "string", "○", 10],
            ["レスポンス"],
            [2, "id", "ID", kind, "○", 10],
        ]

    _, report = diff({"S": sheet("string")}, {"S": sheet("integer")}, "--type", "api")
    assert rules(report) == [("cell.changed", "S!D5 (物理名=id)")]


def test_a_row_with_only_its_key_is_not_a_section(diff: Diff) -> None:
    head, first, *_ = api_rows(1)
    old = [head, ["レスポンス"], first]
    new = [head, ["レスポンス"], first, [None, "memo"]]
    _, report = diff({"S": old}, {"S": new}, "--type", "api")
    assert rules(report) == [("row.added", "S!B4 (物理名=memo)")]


def test_full_width_digits_and_whitespace_and_case(diff: Diff) -> None:
    old = [["K", "V", "W"], ["a", "１０", "Foo  bar"]]
    new = [["K", "V", "W"], ["a", "10", "foo bar "]]
    assert rules(diff({"S": old}, {"S": new})[1]) == [("cell.changed", "S!C2 (K=a)")]
    assert diff({"S": old}, {"S": new}, "-w", "-i")[1]["findings"] == []
    assert rules(diff({"S": old}, {"S": new}, "-w", "-i", "--no-nfkc")[1]) == [
        ("cell.changed", "S!B2 (K=a)")
    ]


def test_numeric_tolerance_and_ignored_column(diff: Diff) -> None:
    old = [["K", "Rate", "Note"], ["a", 1.0, "x"]]
    new = [["K", "Rate", "Note"], ["a", 1.004, "y"]]
    assert rules(diff({"S": old}, {"S": new})[1]) == [
        ("cell.changed", "S!B2 (K=a)"),
        ("cell.changed", "S!C2 (K=a)"),
    ]
    _, report = diff({"S": old}, {"S": new}, "--numeric-tolerance", "0.01", "--ignore", "note")
    assert report["findings"] == []


def _with_furigana(path: Path, reading: str) -> Path:
    """openpyxl writes inline strings as character references; add a phonetic run."""

    def edit(xml: str) -> str:
        phonetic = f'<rPh sb="0" eb="2"><t>{reading}</t></rPh>'
        name = "<t>&#23665;&#30000;</t>"
        assert name in xml
        return xml.replace(name, name + phonetic)

    return patch_part(path, "xl/worksheets/sheet1.xml", edit)


def _shared_with_furigana(path: Path, reading: str) -> Path:
    """The name as Excel stores it: a shared string (index 0) with its phonetic guide."""
    inline = '<c r="B2" t="inlineStr"><is><t>&#23665;&#30000;</t></is></c>'
    patch_part(
        path,
        "xl/worksheets/sheet1.xml",
        lambda xml: xml.replace(inline, '<c r="B2" t="s"><v>0</v></c>'),
    )
    sst = f'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>山田</t><rPh sb="0" eb="2"><t>{reading}</t></rPh></si></sst>'
    return patch_part(path, "xl/sharedStrings.xml", lambda _xml: sst)


@pytest.mark.parametrize(
    "stored", [_with_furigana, _shared_with_furigana], ids=["inline", "shared"]
)
def test_furigana_is_never_part_of_the_text(
    tmp_path: Path, diff: Diff, stored: Callable[[Path, str], Path]
) -> None:
    grid = [["K", "Name"], ["a", "山田"], ["b", "x"]]
    old = stored(write_book(tmp_path / "o.xlsx", {"S": grid}), "ヤマダ")
    new = [["K", "Name"], ["a", "山田"], ["b", "y"]]
    new_book = stored(write_book(tmp_path / "n.xlsx", {"S": new}), "ヤマタ")
    _, report = diff(old, new_book)
    assert [(f["location"], f["expected"], f["actual"]) for f in report["findings"]] == [
        ("S!B3 (K=b)", "x", "y")
    ]  # the name compares equal: only its reading differs


def _cached(path: Path, value: str) -> Path:
    return patch_part(
        path, "xl/worksheets/sheet1.xml", lambda xml: xml.replace("<v></v>", f"<v>{value}</v>")
    )


def test_cached_values_by_default_formulas_on_request(tmp_path: Path, diff: Diff) -> None:
    old = _cached(write_book(tmp_path / "o.xlsx", {"S": [["K", "V"], ["a", "=1+1"]]}), "2")
    new = _cached(write_book(tmp_path / "n.xlsx", {"S": [["K", "V"], ["a", "=3-1"]]}), "2")
    assert diff(old, new)[1]["findings"] == []
    _, report = diff(old, new, "--formulas")
    assert [(f["expected"], f["actual"]) for f in report["findings"]] == [("=1+1", "=3-1")]
