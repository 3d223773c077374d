"""Excel (.xlsx/.xlsm) reader: cached values as displayed, merges, hidden parts, comments."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from officecli.readers.grid import SheetGrid, parse_ref, sheet_blocks
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
from officecli.readers.xlsx_book import (
    X,
    cell_formats,
    shared_strings,
    sheet_refs,
    uses_1904_dates,
    workbook,
)
from officecli.readers.xlsx_book import rich_text as _rich_text

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

MAX_CELLS_NAMED = 20  # cells listed in one loss.formula_no_value finding; the count has them all


class XlsxReader:
    def __init__(self, pkg: Package, options: ReadOptions) -> None:
        self.pkg = pkg
        self.options = options
        self.doc = Document()
        self.cells_left = options.max_cells
        self.strings: list[str] = []
        self.formats: list[str] = []
        self.date1904 = False
        self.uncalculated: dict[str, list[str]] = {}  # sheet -> cells with a formula, no value

    def read(self) -> Document:
        book = workbook(self.pkg)
        self.date1904 = uses_1904_dates(book)
        self.strings = shared_strings(self.pkg)
        self.formats = cell_formats(self.pkg)
        sheets = sheet_refs(self.pkg, book)
        self.doc.counts["sheets"] = len(sheets)
        for sheet in sheets:
            if (sheet.hidden and self.options.skip_hidden) or not sheet.part:
                continue
            grid = SheetGrid(sheet.name, hidden=sheet.hidden)
            self._sheet(sheet.part, grid)
            sheet_blocks(grid, self.doc, self.options)
            self._drawings(sheet.part)
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

    def _display(self, c: Element) -> tuple[str, int]:
        """(displayed text, characters of the raw value for the independent count)."""
        kind = c.get("t", "n")
        v = c.find(X + "v")
        raw = v.text or "" if v is not None else ""
        if kind == "inlineStr":
            is_el = c.find(X + "is")
            text = _rich_text(is_el) if is_el is not None else ""
            return text, count_chars(text)
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
        style = int(c.get("s", "0"))
        code = self.formats[style] if style < len(self.formats) else "General"
        # a number may legitimately display shorter than its stored digits; count it as 1
        return format_value(number, code, self.date1904, self.options.iso_dates), 1

    def _formula_without_value(self, c: Element, sheet: str) -> str:
        """A formula with no cached value (the file was written by a library, never opened in
        Excel) shows as its formula, and is recorded for loss.formula_no_value. An empty
        value of a text formula (t="str") is a real result: the formula returned ""."""
        formula = c.find(X + "f")
        v = c.find(X + "v")
        if formula is None or (v is not None and v.text) or c.get("t") == "str":
            return ""
        self.uncalculated.setdefault(sheet, []).append(c.get("r", ""))
        return "=" + formula.text if formula.text else ""

    def _sheet(self, part: str, grid: SheetGrid) -> None:
        cut = False
        row_raw = 0
        skip = self.options.skip_hidden
        elements = self.pkg.iter_xml(part)
        for el in elements:
            tag = el.tag
            if tag == X + "c":
                if self.cells_left <= 0:
                    cut = True
                    break
                text, raw_chars = self._display(el)
                if not text:
                    text = self._formula_without_value(el, grid.name)
                row, col = parse_ref(el.get("r", "A1"))
                if text:
                    self.cells_left -= 1
                    grid.cells[(row, col)] = text
                    if not (skip and col in grid.hidden_cols):
                        row_raw += raw_chars
                el.clear()
            elif tag == X + "row":
                if el.get("hidden") in ("1", "true"):
                    grid.hidden_rows.add(int(el.get("r", "1")) - 1)
                if not (skip and el.get("hidden") in ("1", "true")):
                    self.doc.raw_chars += row_raw
                row_raw = 0
                el.clear()
            elif tag == X + "col" and el.get("hidden") in ("1", "true"):
                first, last = int(el.get("min", "1")) - 1, int(el.get("max", "1"))
                grid.hidden_cols.update(range(first, min(last, first + 16384)))
            elif tag == X + "mergeCell":
                first_ref, _, last_ref = el.get("ref", "").partition(":")
                r1, c1 = parse_ref(first_ref)
                r2, c2 = parse_ref(last_ref or first_ref)
                grid.merges.append((r1, c1, r2, c2))
        if cut:
            elements.close()  # type: ignore[attr-defined]
            self.doc.raw_chars += row_raw
            self.doc.cuts.append(
                f"cut at --max-cells {self.options.max_cells}: "
                f"sheet {grid.name!r} and any later sheets are incomplete"
            )
        self._comments(part, grid)

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
