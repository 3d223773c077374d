"""The calamine read of a sheet gives exactly the expat scan's grid, or is not used."""

from __future__ import annotations

import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from officecli.readers.model import ReadOptions
from officecli.readers.xlsx.reader import read_grids
from officecli.readers.xlsx.values import sheet_fits

CORPUS = Path(__file__).resolve().parents[4] / ".." / "shared" / "corpus" / "markitdown"
SHEET = "xl/worksheets/sheet1.xml"
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


def _book(path: Path, rows: list[list[Any]], merges: tuple[str, ...] = ()) -> Path:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "項目"
    for row in rows:
        sheet.append(row)
    for ref in merges:
        sheet.merge_cells(ref)
    book.create_sheet("空")
    book.save(path)
    return path


def _with_sheet(path: Path, xml: str) -> Path:
    """The workbook with its first sheet's XML replaced."""
    with zipfile.ZipFile(path) as src:
        members = {info.filename: src.read(info) for info in src.infolist()}
    members[SHEET] = xml.encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in members.items():
            out.writestr(name, data)
    return path


def _sheet_xml(cells: str) -> str:
    return f'<worksheet xmlns="{MAIN}"><sheetData>{cells}</sheetData></worksheet>'


def _calamine_reads(path: Path) -> bool:
    """Whether the first sheet is read by calamine (not handed to the expat scan)."""
    from officecli.readers.safety import Package
    from officecli.readers.xlsx.book import cell_formats, sheet_refs, workbook
    from officecli.readers.xlsx.values import CalamineSheets

    with Package(path) as pkg:
        values = CalamineSheets(pkg, cell_formats(pkg))
        try:
            return values.grid(sheet_refs(pkg, workbook(pkg))[0], 10_000) is not None
        finally:
            values.close()


def _both(path: Path) -> tuple[list[Any], list[Any]]:
    def shape(fast: bool) -> list[Any]:
        grids, cuts = read_grids(path, ReadOptions(max_cells=10_000), fast=fast)
        return [(g.name, g.hidden, g.cell_map(), g.merges, g.comments) for g in grids] + [cuts]

    return shape(True), shape(False)


def test_a_plain_design_sheet_is_read_by_calamine_as_by_the_expat_scan(tmp_path: Path) -> None:
    rows = [["物理名", "型", "桁数", "必須"], ["id", "string", 10, True], ["rate", "number", 0.1, False]]  # fmt: skip
    path = _book(tmp_path / "b.xlsx", [*rows, ["全角１２", None, 1e20, None], ["m"]], ("A5:C5",))
    fast, exact = _both(path)
    assert (fast == exact, _calamine_reads(path)) == (True, True)
    assert fast[0][2][(1, 2)] == "10" and fast[0][3] == [(4, 0, 4, 2)]


def test_shared_strings_with_furigana_and_runs_read_alike(tmp_path: Path) -> None:
    path = _with_sheet(
        _book(tmp_path / "b.xlsx", [["x"]]),
        _sheet_xml(
            '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c>'
            '<c r="C1" t="inlineStr"><is><r><t>かん</t></r><rPh sb="0" eb="1"><t>カン</t></rPh></is></c></row>'
        ),
    )
    sst = (
        f'<sst xmlns="{MAIN}"><si><t>山田</t><rPh sb="0" eb="2"><t>ヤマダ</t></rPh>'
        '<phoneticPr fontId="1"/></si><si><r><t>a</t></r><r><rPr><b/></rPr><t>１２</t></r></si></sst>'
    )
    with zipfile.ZipFile(path, "a") as z:
        z.writestr("xl/sharedStrings.xml", sst)
    fast, exact = _both(path)
    assert (fast == exact, _calamine_reads(path)) == (True, True)
    assert fast[0][2] == {(0, 0): "山田", (0, 1): "a１２", (0, 2): "かん"}


@pytest.mark.parametrize("name", ["test.xlsx", "xlsx_multiple_images.xlsx"])
def test_corpus_workbooks_read_alike(name: str) -> None:
    fast, exact = _both(CORPUS / name)
    assert fast == exact


@pytest.mark.parametrize(
    "cells",
    [
        '<row r="1"><c r="A1"><f>1+1</f><v>2</v></c></row>',  # formula
        '<row r="1"><c r="A1" t="e"><v>#N/A</v></c></row>',  # error
        '<row r="1"><c r="A1" t="d"><v>2026-01-02</v></c></row>',  # ISO date
        '<row r="1" hidden="1"><c r="A1"><v>1</v></c></row>',  # hidden row
        '<row r="1"><c r="A1" t="inlineStr"><is><t>a_x000D_b</t></is></c></row>',  # escape
        '<row r="1"><c><v>1</v></c></row>',  # no reference
        '<row r="1"><c r="A1"><v>1</v></c></row>'
        '<row r="1048576"><c r="XFD1048576"><v>2</v></c></row>',  # a far box
    ],
    ids=["formula", "error", "iso-date", "hidden", "escape", "no-ref", "far-cell"],
)
def test_what_calamine_would_read_otherwise_goes_to_the_expat_scan(
    tmp_path: Path, cells: str
) -> None:
    path = _with_sheet(_book(tmp_path / "b.xlsx", [["x"]]), _sheet_xml(cells))
    assert sheet_fits(_sheet_xml(cells).encode()) is False
    fast, exact = _both(path)
    assert (fast == exact, _calamine_reads(path)) == (True, False)


@pytest.mark.parametrize(
    "edit",
    [
        lambda xml: xml.replace("<worksheet", '<!DOCTYPE w [<!ENTITY a "b">]><worksheet', 1),
        lambda xml: xml[:-20],
        lambda xml: xml.replace(f'xmlns="{MAIN}"', f'xmlns:x="{MAIN}"'),
        lambda xml: xml.replace("<sheetData>", "<sheetData><!-- a note -->"),
        lambda xml: '<?xml version="1.0"?>' + xml.replace("<sheetData>", "<?pi x?><sheetData>"),
    ],
    ids=["dtd", "truncated", "prefixed", "comment", "instruction"],
)
def test_markup_the_expat_scan_judges_is_left_to_it(edit: Callable[[str], str]) -> None:
    xml = _sheet_xml('<row r="1"><c r="A1"><v>1</v></c></row>')
    assert (sheet_fits(xml.encode()), sheet_fits(edit(xml).encode())) == (True, False)


def test_an_xml_declaration_is_plain() -> None:
    xml = '<?xml version="1.0" encoding="UTF-8"?>' + _sheet_xml(
        '<row r="1"><c r="A1"><v>1</v></c></row>'
    )
    assert sheet_fits(xml.encode()) is True


def test_a_date_style_sends_the_workbook_to_the_expat_scan(tmp_path: Path) -> None:
    from datetime import date

    path = _book(tmp_path / "b.xlsx", [["作成日", date(2026, 4, 1)], ["版", 1.5]])
    fast, exact = _both(path)
    assert (fast == exact, _calamine_reads(path)) == (True, False)
    assert fast[0][2][(0, 1)] == "2026-04-01"


def test_a_sheet_over_max_cells_is_cut_where_the_expat_scan_cuts(tmp_path: Path) -> None:
    path = _book(tmp_path / "b.xlsx", [[f"v{r}{c}" for c in range(4)] for r in range(4)])
    cut = [read_grids(path, ReadOptions(max_cells=10), fast=f) for f in (True, False)]
    assert [(grids[0].cell_count(), cuts[:1]) for grids, cuts in cut] == [
        (10, ["cut at --max-cells 10: sheet '項目' and any later sheets are incomplete"])
    ] * 2


@pytest.mark.parametrize(("far", "fits"), [("A1048576", True), ("B1048576", True), ("E1048576", False)])  # fmt: skip
def test_the_box_is_rows_times_columns_from_a1(far: str, fits: bool) -> None:
    cells = (
        f'<row r="1"><c r="A1"><v>1</v></c></row><row r="1048576"><c r="{far}"><v>2</v></c></row>'
    )
    assert sheet_fits(_sheet_xml(cells).encode()) is fits


@pytest.mark.parametrize(
    ("ref", "fits"), [("Z99999", True), ("AB7", True), ("A100000", True), ("C1500000", False)]
)
def test_cells_past_z99999_are_measured_exactly(ref: str, fits: bool) -> None:
    cells = f'<row r="1"><c r="A1"><v>1</v></c><c r="{ref}"><v>2</v></c></row>'
    assert sheet_fits(_sheet_xml(cells).encode()) is fits
