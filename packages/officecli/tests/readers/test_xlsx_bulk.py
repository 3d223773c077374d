"""The bulk read of a sheet (xlsx/bulk.py) gives exactly the expat scan's grid, or is not
used: the same grid, or the same error."""

from __future__ import annotations

import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from officecli.readers.errors import ReaderError
from officecli.readers.grid import SheetGrid
from officecli.readers.model import ReadOptions
from officecli.readers.xlsx.bulk import RowCache
from officecli.readers.xlsx.reader import read_grids

CORPUS = Path(__file__).resolve().parents[4] / ".." / "shared" / "corpus" / "markitdown"
SHEET = "xl/worksheets/sheet1.xml"
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


def _book(path: Path, rows: Sequence[Sequence[object]], merges: tuple[str, ...] = ()) -> Path:
    from officecli_testkit.sheets import active_sheet
    from openpyxl import Workbook

    book = Workbook()
    sheet = active_sheet(book)
    sheet.title = "項目"
    for row in rows:
        sheet.append(list(row))
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


def _sheet_xml(cells: str, head: str = "", tail: str = "") -> str:
    return f'<worksheet xmlns="{MAIN}">{head}<sheetData>{cells}</sheetData>{tail}</worksheet>'


def _read(path: Path, fast: bool) -> list[Any]:
    try:
        grids, cuts = read_grids(path, ReadOptions(max_cells=10_000), fast=fast)
    except ReaderError as exc:
        return [type(exc).__name__, str(exc)]
    shape = [(g.name, g.hidden, g.cell_map(), g.merges, g.comments, g.hidden_cols) for g in grids]
    return [*shape, cuts, [g.rows is not None for g in grids]]


def _both(path: Path) -> tuple[list[Any], list[Any], bool]:
    """Read in bulk where it can, and by the scan: the grids (or the error) of each, and
    whether the first sheet was read in bulk (dense rows)."""
    fast, exact = _read(path, True), _read(path, False)
    bulk = isinstance(fast[-1], list) and fast[-1][0]
    if isinstance(fast[-1], list):  # how the rows were held is not what they hold
        fast, exact = fast[:-1], exact[:-1]
    return fast, exact, bool(bulk)


def test_a_plain_design_sheet_is_read_in_bulk_as_by_the_expat_scan(tmp_path: Path) -> None:
    rows: list[list[object]] = [["物理名", "型", "桁数", "必須"], ["id", "string", 10, True], ["rate", "number", 0.1, False]]  # fmt: skip
    path = _book(tmp_path / "b.xlsx", [*rows, ["全角１２", None, 1e20, None], ["m"]], ("A5:C5",))
    fast, exact, bulk = _both(path)
    assert (fast == exact, bulk) == (True, True)
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
    fast, exact, bulk = _both(path)
    assert (fast == exact, bulk) == (True, True)
    assert fast[0][2] == {(0, 0): "山田", (0, 1): "a１２", (0, 2): "かん"}


@pytest.mark.parametrize("name", ["test.xlsx", "xlsx_multiple_images.xlsx"])
def test_corpus_workbooks_read_alike(name: str) -> None:
    fast, exact, _bulk = _both(CORPUS / name)
    assert fast == exact


INLINE = '<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'


@pytest.mark.parametrize(
    "cells",
    [
        '<row r="1"><c r="A1" t="e"><v>#N/A</v></c></row>',  # error
        '<row r="1"><c r="A1" t="d"><v>2026-01-02</v></c></row>',  # ISO date
        '<row r="1"><c r="A1" t="b"><v>1</v></c><c r="B1" t="b"><v></v></c></row>',  # booleans
        '<row r="1"><c r="A1" t="str"><v>text</v></c><c r="B1"><v>1.50</v></c></row>',
        '<row r="1"><c r="A1" t="inlineStr"><is><t>a_x000D_b</t></is></c></row>',  # escape
        '<row r="1"><c><v>1</v></c><c t="s"><v>0</v></c><c r="D1"><v>3</v></c></row>',  # no ref
        '<row r="1"><c r="A1" t="inlineStr"><is><t>a &amp; &lt;b&gt; &#10;&#x1F600;&quot;</t></is></c>'
        '<c r="B1" t="inlineStr"><is><t xml:space="preserve"> x\r\ny </t></is></c></row>',
        '<row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c></row>'
        '<row r="3" spans="1:3" ht="20" customHeight="1"/>'
        '<row r="4"><c r="B4" t="inlineStr"><is><t>b</t></is></c></row><row r="9"/>',  # empty rows
        '\n  <row r="1">\n    <c r="A1"><v>1</v></c>\n    <c r="B1"><v>2</v></c>\n  </row>\n',
        '<row r="5"><c r="A5" s="5"><v>5</v></c><c r="B5" s="15"><v>15</v></c></row>'
        '<row r="15"><c r="A15" s="5"><v>55</v></c><c r="B15" s="15"><v>5</v></c></row>',
        '<row r="1"><c r="A1" t="inlineStr"></c><c r="B1" t="s"><is><t>x</t></is></c>'
        '<c r="C1" t="inlineStr"><v>7</v></c><c r="D1"/></row>',  # values a kind does not show
        '<row r="1"><c r="A1" t="inlineStr"><is><t>\ufdd10\ufdd1</t></is></c></row>',  # marker
        '<!-- a note --><row r="1"><c r="A1"><v>1</v></c></row>',  # comment
    ],
    ids=[
        "error",
        "iso-date",
        "boolean",
        "str-and-number",
        "escape",
        "no-ref",
        "entities",
        "empty-rows",
        "indented",
        "style-as-row",
        "kind-mismatch",
        "marker",
        "comment",
    ],
)
def test_what_the_scan_shows_is_read_in_bulk(tmp_path: Path, cells: str) -> None:
    path = _with_sheet(_book(tmp_path / "b.xlsx", [["x"]]), _sheet_xml(cells))
    fast, exact, bulk = _both(path)
    assert (fast == exact, bulk) == (True, True)


@pytest.mark.parametrize(
    "cells",
    [
        '<row r="1"><c r="A1"><f>1+1</f><v>2</v></c></row>',  # formula
        '<row r="1" hidden="1"><c r="A1"><v>1</v></c></row>',  # hidden row
        '<row r="1"><c r="A1"><v>1</v></c></row>'
        '<row r="1048576"><c r="XFD1048576"><v>2</v></c></row>',  # a far box
        '<row r="2"><c r="A2"><v>1</v></c></row><row r="1"><c r="A1"><v>2</v></c></row>',
        '<row r="1"><c r="A1"><v>1</v></c><c r="A1"><v>2</v></c></row>',  # a cell twice
        '<row r="1"><c r="A2"><v>1</v></c></row><row r="2"><c r="B2"><v>2</v></c></row>',
        '<row r="1"><c r="A"><v>1</v></c></row>',  # a reference without its row
        '<row r="1"><c r="A1" t="inlineStr"><is><r><t>\ufdd10\ufdd1</t></r></is></c>'
        '<c r="B1" t="inlineStr"><is><t>b</t></is></c></row>',  # a marker in the markup
        '<row r="1"><c r="A1" t="inlineStr"><is><t>a\ufdd0b</t></is></c></row>',  # separator
    ],
    ids=[
        "formula",
        "hidden",
        "far-cell",
        "out-of-order",
        "twice",
        "other-row",
        "no-row",
        "marker-in-markup",
        "separator",
    ],
)
def test_what_bulk_cannot_show_goes_to_the_expat_scan(tmp_path: Path, cells: str) -> None:
    path = _with_sheet(_book(tmp_path / "b.xlsx", [["x"]]), _sheet_xml(cells))
    fast, exact, bulk = _both(path)
    assert (fast == exact, bulk) == (True, False)


@pytest.mark.parametrize(
    "edit",
    [
        lambda xml: xml.replace("<worksheet", '<!DOCTYPE w [<!ENTITY a "b">]><worksheet', 1),
        lambda xml: xml[:-20],
        lambda xml: xml.replace(f'xmlns="{MAIN}"', f'xmlns:x="{MAIN}"'),
        lambda xml: xml.replace("<t>a</t>", "<t>a&#1;</t>"),
        lambda xml: xml.replace("<t>a</t>", "<t>a&nbsp;</t>"),
        lambda xml: xml.replace("<t>a</t>", "<t>a]]></t>"),
        lambda xml: xml.replace("<t>a</t>", "<t>a\x01</t>"),
        lambda xml: xml.replace("<t>a</t>", "<t>a</v>").replace("<v>1</v>", "<v>1</t>"),
        lambda xml: xml.replace('<row r="1">', '<row r="1" x:y="1">'),
        lambda xml: xml.replace('<row r="1">', '<row r="1" r="1">'),
        lambda xml: xml.replace("</sheetData>", "</sheetData><sheetData></sheetData>"),
        lambda xml: xml.replace('<c r="B1"', '<c r="B1" r="B1"'),
        lambda xml: xml.encode("utf-16").decode("latin-1"),
    ],
    ids=[
        "dtd",
        "truncated",
        "prefixed",
        "bad-char-ref",
        "html-entity",
        "cdata-end",
        "control",
        "crossed-closers",
        "unbound-prefix",
        "attribute-twice",
        "two-sheetdata",
        "cell-attribute-twice",
        "utf-16",
    ],
)
def test_markup_the_expat_scan_judges_is_judged_alike(
    tmp_path: Path, edit: Callable[[str], str]
) -> None:
    cells = '<row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c><c r="B1"><v>1</v></c></row>'
    path = _with_sheet(_book(tmp_path / "b.xlsx", [["x"]]), edit(_sheet_xml(cells)))
    fast, exact, _bulk = _both(path)
    assert fast == exact


def test_merges_and_hidden_columns_come_from_the_scan_of_head_and_tail(tmp_path: Path) -> None:
    cells = '<row r="1"><c r="A1"><v>1</v></c><c r="B1"><v>2</v></c></row>'
    head = '<cols><col min="2" max="3" hidden="1"/></cols>'
    tail = '<mergeCells count="1"><mergeCell ref="A1:B1"/></mergeCells>'
    path = _with_sheet(_book(tmp_path / "b.xlsx", [["x"]]), _sheet_xml(cells, head, tail))
    fast, exact, bulk = _both(path)
    assert (fast == exact, bulk, fast[0][3], fast[0][5]) == (True, True, [(0, 0, 0, 1)], {1, 2})


def test_a_date_style_sends_the_workbook_to_the_expat_scan(tmp_path: Path) -> None:
    from datetime import date

    path = _book(tmp_path / "b.xlsx", [["作成日", date(2026, 4, 1)], ["版", 1.5]])
    fast, exact, bulk = _both(path)
    assert (fast == exact, bulk) == (True, False)
    assert fast[0][2][(0, 1)] == "2026-04-01"


def test_a_sheet_over_max_cells_is_cut_where_the_expat_scan_cuts(tmp_path: Path) -> None:
    path = _book(tmp_path / "b.xlsx", [[f"v{r}{c}" for c in range(4)] for r in range(4)])
    cut = [read_grids(path, ReadOptions(max_cells=10), fast=f) for f in (True, False)]
    assert [(grids[0].cell_count(), cuts[:1]) for grids, cuts in cut] == [
        (10, ["cut at --max-cells 10: sheet '項目' and any later sheets are incomplete"])
    ] * 2


def _sheets_with_gaps(path: Path) -> Path:
    """Three sheets whose boxes hold empty cells (a box's size is more than its filled
    cells), the second with a merge: 5, 4 and 3 filled cells in boxes of 6, 6 and 4."""
    from officecli_testkit.sheets import active_sheet
    from openpyxl import Workbook

    book = Workbook()
    sheets: dict[str, list[list[str | None]]] = {
        "Sheet": [["a", None, "b"], ["c", "d", "e"]],
        "二": [["f", "g"], [None, None], ["h", "i"]],
        "三": [["j", None], [None, "k"], ["l", None]],
    }
    for name, rows in sheets.items():
        sheet = active_sheet(book) if name == "Sheet" else book.create_sheet(name)
        for row in rows:
            sheet.append(row)
    book["二"].merge_cells("A1:B1")
    book.save(path)
    return path


def test_max_cells_over_several_sheets_cuts_where_the_expat_scan_cuts(tmp_path: Path) -> None:
    """A bulk read's cells come off --max-cells when a later sheet asks what is left (its
    box fitting, they were not counted at once): for every budget, the grids and cuts are
    the scan's."""
    path = _sheets_with_gaps(tmp_path / "b.xlsx")
    for budget in range(15):
        fast, exact = (read_grids(path, ReadOptions(max_cells=budget), fast=f) for f in (True, False))  # fmt: skip
        shown = [[(g.name, g.cell_map(), g.merges) for g in grids] for grids, _ in (fast, exact)]
        assert (shown[0], fast[1]) == (shown[1], exact[1]), budget
    grids, cuts = read_grids(path, ReadOptions(max_cells=9), fast=True)
    assert ([g.rows is not None for g in grids], cuts) == (
        [True, True, False],
        [
            "cut at --max-cells 9: the merged ranges of sheet '二' cover more cells than were"
            " left; those past it are not applied",
            "cut at --max-cells 9: sheet '三' and any later sheets are incomplete",
        ],
    )


@pytest.mark.parametrize(("far", "bulk"), [("A1048576", True), ("C1048576", True), ("D1048576", False)])  # fmt: skip
def test_the_box_is_rows_times_columns_from_a1(tmp_path: Path, far: str, bulk: bool) -> None:
    """Dense rows from A1 to the farthest cell: at most MAX_BOX (4,000,000) cells."""
    cells = (
        f'<row r="1"><c r="A1"><v>1</v></c></row><row r="1048576"><c r="{far}"><v>2</v></c></row>'
    )
    path = _with_sheet(_book(tmp_path / "b.xlsx", [["x"]]), _sheet_xml(cells))
    fast, exact, used = _both(path)
    assert (fast == exact, used) == (True, bulk)


def _rows(rows: list[str], sst: list[str] | None = None) -> tuple[str, str | None]:
    cells = "".join(f'<row r="{n}">{row}</row>' for n, row in enumerate(rows, start=1))
    strings = "".join(f"<si><t>{s}</t></si>" for s in sst or [])
    return _sheet_xml(cells), (f'<sst xmlns="{MAIN}">{strings}</sst>' if sst else None)


def _read_sharing_rows(before: Path, after: Path) -> tuple[list[SheetGrid], list[SheetGrid]]:
    """Both workbooks' grids read in bulk as design-diff reads them (one RowCache), each
    checked to hold the cells the scan reads."""
    cache = RowCache()
    options = ReadOptions(max_cells=10_000)
    first, _ = read_grids(before, options, rows_read=cache)
    second, _ = read_grids(after, options, rows_read=cache)
    exact = [read_grids(path, options, fast=False)[0][0].cell_map() for path in (before, after)]
    assert [first[0].cell_map(), second[0].cell_map()] == exact
    return first, second


def _workbook(path: Path, rows: list[str], sst: list[str] | None = None) -> Path:
    xml, strings = _rows(rows, sst)
    path = _with_sheet(_book(path, [["x"]]), xml)
    if strings:
        with zipfile.ZipFile(path, "a") as z:
            z.writestr("xl/sharedStrings.xml", strings)
    return path


def test_rows_read_for_one_workbook_serve_the_other_exactly(tmp_path: Path) -> None:
    """The rows of the before workbook, cached without their numbers, give the after
    one's rows at other numbers; a value holding its own row's number and a quote, a
    shared string (an index into each workbook's own table) and a row twice are not
    taken for another row."""

    def row(n: int, text: str) -> str:
        return f'<c r="A{n}" t="inlineStr"><is><t>{text}</t></is></c><c r="B{n}" t="s"><v>0</v></c>'

    before = _workbook(
        tmp_path / "a.xlsx",
        [row(1, "a"), row(2, '2"'), row(3, "b"), row(4, "b"), row(5, "x &amp; 5")],
        ["甲"],
    )
    after = _workbook(
        tmp_path / "b.xlsx",
        [row(1, "new"), row(2, "a"), row(3, '3"'), row(4, "b"), row(5, "b"), row(6, "x &amp; 5")],
        ["乙"],
    )
    first, second = _read_sharing_rows(before, after)
    rows = second[0].rows
    assert first[0].rows is not None and rows is not None  # both read in bulk
    assert [rows[r][:2] for r in (1, 2, 5)] == [["a", "乙"], ['3"', "乙"], ["x & 5", "乙"]]


def test_rows_read_in_batches_read_alike(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows are read BATCH at a time; the values read count against --max-cells as they
    are read (past it, the scan reads the sheet and cuts it at the exact cell)."""
    from officecli.readers.xlsx import bulk

    monkeypatch.setattr(bulk, "BATCH", 3)
    rows = [[f"k{r}", r, "&" if r % 4 else None] for r in range(11)]
    path = _book(tmp_path / "b.xlsx", rows)
    fast, exact, used = _both(path)
    assert (fast == exact, used, len(fast[0][2])) == (True, True, 30)
    cut = [read_grids(path, ReadOptions(max_cells=7), fast=f)[1] for f in (True, False)]
    assert (
        cut[0]
        == cut[1]
        == ["cut at --max-cells 7: sheet '項目' and any later sheets are incomplete"]
    )


SPLIT_SHEET = (
    '<row r="1" spans="1:3"><c r="A1" t="inlineStr"><is><t>物理名</t></is></c>'
    '<c r="B1" t="inlineStr"><is><t xml:space="preserve"> 型 </t></is></c><c r="C1"><v>1</v></c></row>'
    '<row r="2"/><row r="3"><c r="A3" t="inlineStr"><is><t>a &amp; b</t></is></c></row>'
    '<row r="4"><c r="B4"><v>4.5</v></c><c r="C4" t="inlineStr"><is><t>4"</t></is></c></row>'
)
SPLIT_HEAD = '<cols><col min="2" max="2" hidden="1"/></cols>'
SPLIT_TAIL = '<mergeCells count="1"><mergeCell ref="A3:C3"/></mergeCells>'


@pytest.mark.parametrize("chunk", [1, 2, 5, 11, 64, 1 << 20])
def test_a_sheet_inflated_in_chunks_of_any_size_reads_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    """The bulk read takes a sheet's bytes as they are inflated: a head, a row, a </row>, a
    value or the tail cut anywhere between two chunks reads as the whole sheet does."""
    from officecli.readers.xlsx import bulk

    monkeypatch.setattr(bulk, "CHUNK", chunk)
    xml = _sheet_xml(SPLIT_SHEET, SPLIT_HEAD, SPLIT_TAIL)
    path = _with_sheet(_book(tmp_path / "b.xlsx", [["x"]]), xml)
    fast, exact, bulk_read = _both(path)
    assert (fast == exact, bulk_read) == (True, True)
    assert fast[0][2] == {(0, 0): "物理名", (0, 1): " 型 ", (0, 2): "1", (2, 0): "a & b", (3, 1): "4.5", (3, 2): '4"'}  # fmt: skip
    assert (fast[0][3], fast[0][5]) == ([(2, 0, 2, 2)], {1})


@pytest.mark.parametrize("chunk", [1, 3, 1 << 20])
def test_an_empty_sheet_data_inflated_in_chunks_reads_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    from officecli.readers.xlsx import bulk

    monkeypatch.setattr(bulk, "CHUNK", chunk)
    xml = f'<worksheet xmlns="{MAIN}">{SPLIT_HEAD}<sheetData/>{SPLIT_TAIL}</worksheet>'
    path = _with_sheet(_book(tmp_path / "b.xlsx", [["x"]]), xml)
    fast, exact, bulk_read = _both(path)
    assert (fast == exact, bulk_read, fast[0][2]) == (True, True, {})


def test_bytes_without_a_row_end_past_the_bound_go_to_the_scan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A row or a tail longer than MAX_PENDING is not gathered chunk by chunk (each chunk
    would copy all that came before): the scan reads the sheet, alike."""
    from officecli.readers.xlsx import bulk

    monkeypatch.setattr(bulk, "CHUNK", 16)
    monkeypatch.setattr(bulk, "MAX_PENDING", 40)
    path = _with_sheet(
        _book(tmp_path / "b.xlsx", [["x"]]), _sheet_xml(SPLIT_SHEET, SPLIT_HEAD, SPLIT_TAIL)
    )
    fast, exact, bulk_read = _both(path)
    assert (fast == exact, bulk_read) == (True, False)


NUMBER_CELL = '<c r="A{n}"><v>{n}</v></c>'
INLINE_CELL = '<c r="A{n}" t="inlineStr"><is><t>a{n}</t></is></c>'
RICH_CELL = '<c r="A{n}" t="inlineStr"><is><r><t>rich</t></r></is></c>'


@pytest.mark.parametrize(
    ("first", "later", "plans"),
    [(INLINE_CELL, NUMBER_CELL, 2), (NUMBER_CELL, INLINE_CELL, 2), (INLINE_CELL, RICH_CELL, 2)],
    ids=["inline-then-number", "number-then-inline", "inline-then-rich-text"],
)
def test_a_kind_of_value_first_met_in_a_later_batch_reads_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, first: str, later: str, plans: int
) -> None:
    """What the first batch holds (inline strings, or <v> values) is what the next batches
    are cut for, until a batch's shapes still hold the other kind: it is cut again for both,
    so its rows share their shape (read once by the scan) instead of each keeping its value
    in its shape."""
    from officecli.readers.xlsx import bulk

    planned: list[bytes] = []
    plan = bulk._plan

    def counted(sheet: Any, shape: bytes) -> Any:
        planned.append(shape)
        return plan(sheet, shape)

    monkeypatch.setattr(bulk, "BATCH", 1)
    monkeypatch.setattr(bulk, "_plan", counted)
    cells = [first] * 3 + [later] * 2 + [first]
    xml = _sheet_xml("".join(f'<row r="{n}">{c.format(n=n)}</row>' for n, c in enumerate(cells, 1)))
    path = _with_sheet(_book(tmp_path / "b.xlsx", [["x"]]), xml)
    fast, exact, bulk_read = _both(path)
    assert (fast == exact, bulk_read, len(fast[0][2]), len(planned)) == (True, True, 6, plans)


def test_rows_made_for_one_workbook_are_taken_by_the_other_when_its_plan_is_the_same(
    tmp_path: Path,
) -> None:
    """A row with a gap (no B cell) is made by its shape's plan; the after workbook takes
    the row the before one made of the same values (the same object), at its own number,
    and makes its own of the rows it changed or added; both read as the scan reads them."""

    def row(n: int, text: str) -> str:
        return (
            f'<c r="A{n}" t="inlineStr"><is><t>{text}</t></is></c>'
            f'<c r="C{n}" t="inlineStr"><is><t>{text}!</t></is></c>'
        )

    before = _workbook(tmp_path / "a.xlsx", [row(1, "a"), row(2, "b"), row(3, "c")])
    after = _workbook(tmp_path / "b.xlsx", [row(1, "new"), row(2, "a"), row(3, "b"), row(4, "c")])
    first, second = _read_sharing_rows(before, after)
    old, new = first[0].rows, second[0].rows
    assert old is not None and new is not None
    assert [new[r] for r in range(4)] == [["new", "", "new!"], ["a", "", "a!"], ["b", "", "b!"], ["c", "", "c!"]]  # fmt: skip
    assert [new[r + 1] is old[r] for r in range(3)] == [True, True, True]
