"""Excel (.xlsx/.xlsm) reader: cached values as displayed, merges, hidden parts, comments."""

from __future__ import annotations

from contextlib import closing
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from officecli.readers.grid import SheetGrid, bound_merges, cell_ref, sheet_blocks
from officecli.readers.model import Block, Document, ReadOptions, count_chars
from officecli.readers.numfmt import format_value
from officecli.readers.ooxml import (
    R_EMBED,
    R_ID,
    chart_raw_chars,
    chart_rows,
    chart_title,
    picture_ext,
    q,
)
from officecli.readers.safety import Package
from officecli.readers.xlsx.book import (
    X,
    cell_formats,
    shared_strings,
    sheet_refs,
    uses_1904_dates,
    workbook,
)
from officecli.readers.xlsx.book import rich_text as _rich_text
from officecli.readers.xlsx.sheet import SheetScan

if TYPE_CHECKING:
    from collections.abc import Iterator

    from officecli.readers.xlsx.book import SheetRef
    from officecli.readers.xlsx.bulk import RowCache

MAX_CELLS_NAMED = 20  # cells listed in one loss.formula_no_value finding; the count has them all


class XlsxReader:
    def __init__(self, pkg: Package, options: ReadOptions) -> None:
        self.pkg = pkg
        self.options = options
        self.doc = Document()
        self._left = options.max_cells  # of --max-cells, as `cells_left` settles it
        self._unsettled: SheetGrid | None = None  # a bulk read's grid not yet counted (_within)
        self.formats: list[str] = []
        self.date1904 = False
        self.uncalculated: dict[str, list[str]] = {}  # sheet -> cells with a formula, no value
        self.rows_read: RowCache | None = None  # rows read in bulk (shared with another workbook's)

    def read(self) -> Document:
        for part, grid in self.grids():
            sheet_blocks(grid, self.doc, self.options)
            self._drawings(part)
        for name, cells in self.uncalculated.items():
            shown = ", ".join(cells[:MAX_CELLS_NAMED]) + (
                " ..." if len(cells) > MAX_CELLS_NAMED else ""
            )
            self.doc.warnings.append(
                (
                    "loss.formula_no_value",
                    f"sheet {name!r}: {len(cells)} formula cell(s) have no calculated value "
                    f"(shown as their formula): {shown}",
                    "rerun with --recalc (needs LibreOffice), or open and save the file in Excel",
                )
            )
        return self.doc

    @cached_property
    def strings(self) -> list[str]:
        """The shared strings, read when the expat scan first needs them."""
        return shared_strings(self.pkg)

    def grids(self, fast: bool = False) -> Iterator[tuple[str, SheetGrid]]:
        """Each sheet's (part name, grid of displayed values), in workbook order. `fast`
        reads in bulk the sheets that reads exactly as the expat scan (bulk.py)."""
        book = workbook(self.pkg)
        self.date1904 = uses_1904_dates(book)
        self.formats = cell_formats(self.pkg)
        sheets = sheet_refs(self.pkg, book)
        self.doc.counts["sheets"] = len(sheets)
        for sheet in sheets:
            if (sheet.hidden and self.options.skip_hidden) or not sheet.part:
                continue
            grid = self._bulk(sheet) if fast else None
            if grid is None or not self._within(grid):  # the expat scan cuts at the exact cell
                grid = SheetGrid(sheet.name, hidden=sheet.hidden)
                self._sheet(sheet.part, grid)
            else:
                self._comments(sheet.part, grid)
            self._merges(grid)
            yield sheet.part, grid

    def cells_left(self) -> int:
        """What is left of --max-cells, the cells of every sheet read so far counted."""
        if self._unsettled is not None:
            self._left -= self._unsettled.cell_count()
            self._unsettled = None
        return self._left

    def _within(self, grid: SheetGrid) -> bool:
        """Whether a bulk read's grid fits in what is left of --max-cells, and if so take
        its cells. A grid whose box (empty cells too) fits is counted only when something
        asks what is left: counting the filled cells of a one-sheet workbook's every row
        cost as much as finding its tables."""
        left = self.cells_left()
        if grid.cell_bound() <= left:
            self._unsettled = grid
            return True
        count = grid.cell_count()
        if count > left:
            return False
        self._left -= count
        return True

    def _bulk(self, sheet: SheetRef) -> SheetGrid | None:
        """The sheet read in bulk, or None when the expat scan must read it (bulk.py
        says which; a number format other than General anywhere)."""
        from officecli.readers.xlsx.bulk import CHUNK, GENERAL_CODES, RowCache, bulk_grid

        if not all(code in GENERAL_CODES for code in self.formats):
            return None

        def display(kind: str, raw: str) -> str:
            return self._display(kind, 0, raw, "", "")[0]  # style 0: every format is General

        label = f"{self.pkg.label}:{sheet.part}"
        if self.rows_read is None:
            self.rows_read = RowCache()
        cache, limit = self.rows_read, self.cells_left()
        with closing(self.pkg.chunks(sheet.part, CHUNK)) as chunks:  # closed if refused early
            return bulk_grid(chunks, sheet.name, sheet.hidden, display, label, cache, limit)

    def _display(
        self, kind: str, style: int, raw: str, inline: str, formula: str
    ) -> tuple[str, int]:
        """(displayed text, characters of the raw value for the independent count)."""
        if formula and self.options.formulas:
            return "=" + formula, count_chars(formula)
        if kind == "inlineStr":
            return inline, count_chars(inline)
        if kind == "s":
            text = self.strings[int(raw)] if raw.isdigit() and int(raw) < len(self.strings) else ""
            return text, count_chars(text)
        if kind == "b":
            return ("TRUE" if raw == "1" else "FALSE") if raw else "", 1 if raw else 0
        if kind in ("str", "e"):
            return raw, count_chars(raw)
        if not raw:
            return "", 0
        try:
            number = float(raw)
        except ValueError:
            return raw, count_chars(raw)
        code = self.formats[style] if style < len(self.formats) else "General"
        # a number may legitimately display shorter than its stored digits; count it as 1
        return format_value(number, code, self.date1904, self.options.iso_dates), 1

    def _formula_without_value(
        self, kind: str, formula: str, raw: str, ref: str, sheet: str
    ) -> str:
        """A formula with no cached value (the file was written by a library, never opened in
        Excel) shows as its formula, and is recorded for loss.formula_no_value. An empty
        value of a text formula (t="str") is a real result: the formula returned ""."""
        if not formula or raw or kind == "str":
            return ""
        self.uncalculated.setdefault(sheet, []).append(ref)
        return "=" + formula

    def _sheet(self, part: str, grid: SheetGrid) -> None:
        skip = self.options.skip_hidden
        cut = False

        self.cells_left()  # settled: the cells below count off `_left` itself

        def cell(row: int, col: int, kind: str, style: int, raw: str, inline: str, f: str) -> bool:
            nonlocal cut
            if self._left <= 0:
                cut = True
                return False
            text, raw_chars = self._display(kind, style, raw, inline, f)
            if not text and f:
                text = self._formula_without_value(kind, f, raw, cell_ref(row, col), grid.name)
            if text:
                self._left -= 1
                grid.cells[(row, col)] = text
                if not (skip and (row in scan.hidden_rows or col in scan.hidden_cols)):
                    self.doc.raw_chars += raw_chars
            return True

        scan = SheetScan(cell)
        self.pkg.scan_xml(part, scan)
        grid.hidden_rows, grid.hidden_cols = scan.hidden_rows, scan.hidden_cols
        grid.merges = scan.merges
        if cut:
            self.doc.cuts.append(
                f"cut at --max-cells {self.options.max_cells}: "
                f"sheet {grid.name!r} and any later sheets are incomplete"
            )
        self._comments(part, grid)

    def _merges(self, grid: SheetGrid) -> None:
        """Merges are ranges cut to the used rows; what they cost comes off --max-cells."""
        if not grid.merges:  # nothing to count: what is left need not be settled
            return
        left = self.cells_left()
        cost = bound_merges(grid, max(left, 0))
        if cost > left:
            self.doc.cuts.append(
                f"cut at --max-cells {self.options.max_cells}: the merged ranges of sheet "
                f"{grid.name!r} cover more cells than were left; those past it are not applied"
            )
        self._left = max(left - cost, 0)

    def _comments(self, part: str, grid: SheetGrid) -> None:
        for target, kind in self.pkg.rels(part).values():
            if kind == "comments" and self.pkg.has(target):
                for comment in self.pkg.xml(target).iter(X + "comment"):
                    text_el = comment.find(X + "text")
                    text = _rich_text(text_el) if text_el is not None else ""
                    grid.comments.append((comment.get("ref", ""), text))
                    self.doc.raw_chars += count_chars(text)

    def _drawings(self, part: str) -> None:
        for target, kind in self.pkg.rels(part).values():
            if kind != "drawing" or not self.pkg.has(target):
                continue
            rels = self.pkg.rels(target)
            root = self.pkg.xml(target)
            for blip in root.iter(q("a", "blip")):
                image = rels.get(blip.get(R_EMBED, ""), ("", ""))[0]
                asset = ""
                if image and self.pkg.has(image):
                    asset = self.doc.add_asset("image", picture_ext(image), self.pkg.read(image))
                self.doc.add(Block("image", "", asset=asset))
            for chart in root.iter(q("c", "chart")):
                chart_part = rels.get(chart.get(R_ID, ""), ("", ""))[0]
                self.doc.raw_chars += chart_raw_chars(self.pkg, chart_part)
                rows = chart_rows(self.pkg, chart_part)
                title = chart_title(self.pkg, chart_part)
                if rows:
                    self.doc.add(Block("heading", f"Chart: {title}" if title else "Chart", level=3))
                    self.doc.add(Block("table", rows=rows))
                else:
                    alt = (
                        f"chart {title} without cached data"
                        if title
                        else "chart without cached data"
                    )
                    self.doc.add(Block("image", alt))
                    self.doc.notes.append("chart without cached data not converted")


def read_xlsx(path: Path, options: ReadOptions) -> Document:
    with Package(path) as pkg:
        return XlsxReader(pkg, options).read()


def read_grids(
    path: Path, options: ReadOptions, fast: bool = True, rows_read: RowCache | None = None
) -> tuple[list[SheetGrid], list[str]]:
    """Every sheet as a grid of displayed values, and the cuts made (--max-cells).
    `fast=False` reads every sheet with the expat scan (the reference the tests compare);
    `rows_read` is shared by the reads of workbooks alike (two versions of one)."""
    with Package(path) as pkg:
        reader = XlsxReader(pkg, options)
        if rows_read is not None:
            reader.rows_read = rows_read
        return [grid for _part, grid in reader.grids(fast)], reader.doc.cuts
