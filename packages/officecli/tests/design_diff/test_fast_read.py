"""design-diff reads plain sheets from the bulk read's dense rows (row slices, no dict of every
cell): the tables, loose cells and reports are exactly those read from the expat scan's
dict of cells."""

from __future__ import annotations

import datetime
import re
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from officecli_testkit.design_diff_helpers import patch_part, write_book

from officecli.design_diff.presets import load_preset
from officecli.design_diff.workbook import Sheet, sheet_tables
from officecli.readers.grid import Merge, SheetGrid
from officecli.readers.grid_rows import RowCells
from officecli.readers.model import ReadOptions
from officecli.readers.xlsx.reader import read_grids

PRESETS = [load_preset(name, None) for name in ("generic", "api", "table")]


def _tables_both_ways(path: Path) -> tuple[list[bool], list[list[Sheet]], list[list[Sheet]]]:
    """Which sheets were read in bulk, and every preset's sheets read fast and by the scan."""
    fast, _ = read_grids(path, ReadOptions(max_cells=10_000), fast=True)
    exact, _ = read_grids(path, ReadOptions(max_cells=10_000), fast=False)
    return (
        [g.rows is not None for g in fast],
        [[sheet_tables(g, p) for g in fast] for p in PRESETS],
        [[sheet_tables(g, p) for g in exact] for p in PRESETS],
    )


def _design(changed: str) -> list[list[Any]]:
    """A title merged across, a two-level header (merged), a blank row, a second table
    beside the first past an empty column, numbers, booleans, blanks and spaces."""
    return [
        ["API定義書", None, None, None, None, None, None, "版", 1.5],
        ["メソッド", "GET", None, None, None, None, None, None, None],
        [None] * 9,
        ["No", "物理名", "桁数", None, "必須", None, None, None, None],
        [None, None, "最小", "最大", None, None, None, "コード", "名称"],
        [1, "id", 1, 10, True, None, None, "A", "甲"],
        [2, "name", " ", 20, False, None, None, "B", changed],
        [3, "ｒａｔｅ", 0.1, 1e20, None, None, None, None, None],
        [None] * 9,
        ["区分", "レスポンス", None, None, None, None, None, None, None],
        ["物理名", "型", None, None, None, None, None, None, None],
        ["status", "string", None, None, None, None, None, None, "  "],
    ]


MERGES = ["A1:F1", "C4:D4", "A4:A5", "B4:B5", "E4:E5", "J20:K30"]


def test_a_design_sheet_reads_alike_in_bulk_and_from_the_scan(tmp_path: Path) -> None:
    path = write_book(tmp_path / "b.xlsx", {"項目": _design("乙"), "空": []}, {"項目": MERGES})
    used, fast, exact = _tables_both_ways(path)
    assert (used, fast == exact) == ([True, True], True)
    api = fast[1][0]
    assert [t.headers for t in api.tables] == [  # the blocks naming the key (物理名)
        ["No", "物理名", "桁数/最小", "桁数/最大", "必須"],
        ["物理名", "型"],
    ]
    assert [r.values for r in api.tables[0].rows][1:] == [
        ["2", "name", " ", "20", "FALSE"],
        ["3", "ｒａｔｅ", "0.1", "1e+20", ""],
    ]
    assert api.loose is not None
    assert [(r.number, r.values) for r in api.loose.rows] == [
        (0, ["API定義書", "", "版", "1.5"]),
        (1, ["メソッド", "GET", "", ""]),
        (4, ["", "", "コード", "名称"]),
        (5, ["", "", "A", "甲"]),
        (6, ["", "", "B", "乙"]),
        (9, ["区分", "レスポンス", "", ""]),
    ]


def test_inline_strings_read_alike(tmp_path: Path) -> None:
    """Cells written as inline strings (as write-only openpyxl writes them)."""
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    sheet = book.create_sheet("項目")
    for row in _design("乙"):
        sheet.append(row)
    book.save(tmp_path / "b.xlsx")
    used, fast, exact = _tables_both_ways(tmp_path / "b.xlsx")
    assert (used, fast == exact) == ([True], True)


def test_a_sheet_with_an_error_cell_is_read_in_bulk_as_the_scan_shows_it(tmp_path: Path) -> None:
    path = write_book(tmp_path / "b.xlsx", {"項目": _design("乙"), "誤り": _design("乙")})
    error = '<c r="I6" t="e"><v>#N/A</v></c>'
    patch_part(
        path,
        "xl/worksheets/sheet2.xml",
        lambda xml: re.sub(r'<c r="I6"[^>]*>.*?</c>', error, xml, count=1),
    )
    used, fast, exact = _tables_both_ways(path)
    assert (used, fast == exact) == ([True, True], True)
    assert [r.values for r in fast[0][1].tables[2].rows] == [["A", "#N/A"], ["B", "乙"]]


def test_a_date_style_sends_the_workbook_to_the_scan(tmp_path: Path) -> None:
    sheets = {"項目": [*_design("乙"), ["作成日", datetime.date(2026, 4, 1)]], "空": []}
    used, fast, exact = _tables_both_ways(write_book(tmp_path / "b.xlsx", sheets))
    assert (used, fast == exact) == ([False, False], True)
    assert fast[0][0].cells[(12, 1)] == "2026-04-01"


def test_a_merge_reaching_below_the_last_row_stops_there_both_ways(tmp_path: Path) -> None:
    """A merged range is cut to the used rows: its value is not repeated into rows of
    nothing (a range to XFD1048576 would otherwise be a million rows)."""
    path = write_book(tmp_path / "b.xlsx", {"S": _design("乙")}, {"S": ["I12:I40"]})
    used, fast, exact = _tables_both_ways(path)
    assert (used, fast == exact) == ([True], True)
    cells = fast[0][0].cells
    last = max(r for r, _c in cells)
    assert last < 39
    assert [cells.get((r, 8)) for r in (11, last)] == ["  ", "  "]


VALUES = st.sampled_from(["", "", "", " ", "x", "1", "物理名", "型", "必須", "No", "全角１"])


@st.composite
def _grids(draw: st.DrawFn) -> tuple[list[list[str]], list[Merge]]:
    height, width = draw(st.integers(1, 9)), draw(st.integers(1, 6))
    rows = [[draw(VALUES) for _ in range(width)] for _ in range(height)]
    merges = []
    for _ in range(draw(st.integers(0, 3))):
        r, c = draw(st.integers(0, height)), draw(st.integers(0, width))
        merges.append((r, c, r + draw(st.integers(0, 3)), c + draw(st.integers(0, 3))))
    return rows, merges


@settings(max_examples=150, deadline=None)
@given(_grids(), st.integers(0, 3))
def test_dense_rows_give_the_tables_of_the_dict_of_cells(
    grid: tuple[list[list[str]], list[Merge]], header_row: int
) -> None:
    rows, merges = grid
    cells = {(r, c): v for r, row in enumerate(rows) for c, v in enumerate(row) if v}
    for preset in PRESETS:
        dense = sheet_tables(
            SheetGrid("S", rows=[list(r) for r in rows], merges=merges), preset, header_row
        )
        sparse = sheet_tables(SheetGrid("S", cells=cells, merges=merges), preset, header_row)
        assert dense == sparse


def test_filled_rows_looks_at_the_most_filled_column_first_and_joins_the_rest() -> None:
    """Column 1 is the filled one in the first rows (the probe); a row blank there is filled
    when another of its values is, and values of spaces are blank."""
    rows = [["", f"k{r}", ""] for r in range(66)]
    rows += [["x", "", ""], [" ", " ", " "], ["", "", ""], ["", "  ", "y"]]
    filled = RowCells(rows).filled_rows()
    assert filled == [*range(66), 66, 69]
    assert RowCells([[], []]).filled_rows() == []
