"""A worksheet's displayed values read by calamine (Rust), for sheets where that gives
exactly what the expat scan (sheet.py) gives, several times faster.

calamine returns typed values, not what Excel shows, and reads the package itself, so a
sheet is read this way only when every member was first read through the guarded Package
(declared and real sizes checked) and a screen of its bytes shows nothing it would render
differently: every cell style displays numbers as General, and the sheet has no formula,
no error or ISO-date cell, no hidden row or column, no `_xHHHH_` escape or raw CR, no DTD,
comment or CDATA, is not cut short, and has a reference on every cell, all inside a box of MAX_BOX cells (calamine allocates the box
of a sheet densely: a 200-byte sheet with cells at A1 and XFD1048576 would abort the
process). Any other sheet, or a value of an unexpected type, goes to the expat scan.
"""

from __future__ import annotations

import re
from itertools import chain
from typing import TYPE_CHECKING, Any

from officecli.readers.grid import SheetGrid, parse_ref
from officecli.readers.numfmt import general

if TYPE_CHECKING:
    from python_calamine import CalamineWorkbook

    from officecli.readers.safety import Package
    from officecli.readers.xlsx.book import SheetRef

MAX_BOX = 4_000_000  # rows x columns from A1 to the farthest cell (about 200 MB in calamine)
GENERAL_CODES = ("general", "@")  # number formats under which calamine's float reads as shown
MAIN_URI = rb"http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_DEFAULT_NS = b'xmlns="' + MAIN_URI + b'"'
_PREFIXED_NS = re.compile(rb"xmlns:[\w.-]+\s*=\s*[\"']" + re.escape(MAIN_URI))
_FORMULA = re.compile(rb"<f[\s/>]")
_ERROR_OR_DATE = re.compile(rb"=\s*[\"'][ed][\"']")
_CELL_LETTERS = re.compile(rb' r="([A-Z]{1,3})[0-9]')
_CELL_DIGITS = re.compile(rb' r="[A-Z]{1,3}([0-9]{1,7})"')
# after an XML declaration, a DTD, comment, CDATA, processing instruction or formula, or a
# cell not written <c r="A1" with one letter and at most five digits: without any, the
# sheet is plain and every cell has a reference within A1:Z99999 (2.6M cells < MAX_BOX).
# Two passes, each quicker than one pass of their alternation (which stops at every "<")
_MARKUP = re.compile(rb"<(?:[!?]|f[\s/>])")
_FAR_CELL = re.compile(rb'<c(?=[\s/>])(?! r="[A-Z][0-9]{1,5}")')
_TEXT_SCREEN = (b"_x", b"\r")  # escapes calamine decodes and the expat scan keeps; raw CR


def _complete(data: bytes, closing: bytes) -> bool:
    """Not truncated (calamine reads a part cut short as far as it goes; the expat scan
    calls it broken), and nothing calamine decodes differently."""
    if not data.rstrip().endswith(closing):
        return False
    return not any(mark in data for mark in _TEXT_SCREEN)


def _plain(data: bytes, closing: bytes) -> bool:
    """No DTD, comment, CDATA or processing instruction (the expat scan refuses or reads
    those its own way), and complete."""
    return b"<!" not in data and data.count(b"<?") <= 1 and _complete(data, closing)


def sheet_fits(data: bytes) -> bool:
    """Whether calamine reads this worksheet part exactly as the expat scan does."""
    if _DEFAULT_NS not in data or _PREFIXED_NS.search(data) or b"hidden" in data:
        return False
    if not _complete(data, b"</worksheet>") or _ERROR_OR_DATE.search(data):
        return False
    start = 2 if data.startswith(b"<?") else 0
    if not _MARKUP.search(data, start) and not _FAR_CELL.search(data, start):
        return True  # two regex passes settle the common sheet
    if not _plain(data, b"</worksheet>") or _FORMULA.search(data):
        return False
    cells = data.count(b"<c ") + data.count(b"<c>") + data.count(b"<c/>")
    letters = _CELL_LETTERS.findall(data)
    if len(letters) != cells:  # a cell without r (or written otherwise): not screened here
        return False
    if not cells:
        return True
    width = parse_ref(max(set(letters), key=lambda s: (len(s), s)).decode() + "1")[1] + 1
    tallest = MAX_BOX // width
    long_row = re.compile(rb' r="[A-Z]{1,3}[0-9]{%d}' % len(str(tallest)))
    if not long_row.search(data):  # every row number is shorter than the tallest allowed
        return True
    return max(map(int, _CELL_DIGITS.findall(data))) <= tallest


class _NotShown(Exception):
    """A value of a type the screen should have excluded (a date, a duration)."""


def _shown(value: object) -> str:
    """Display text of a calamine value other than a string."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int | float):
        return general(float(value))
    raise _NotShown


def _displayed(rows: list[list[Any]]) -> list[list[str]]:
    """The rows with every value as shown, in place: a row of strings only (most of a
    design sheet) is left as calamine built it, the type test running in C."""
    if set(map(type, chain.from_iterable(rows))) <= {str}:
        return rows
    for row in rows:
        if set(map(type, row)) != {str}:
            row[:] = [v if v.__class__ is str else _shown(v) for v in row]
    return rows


class CalamineSheets:
    """The sheets of one workbook that calamine may read, screened on first use."""

    def __init__(self, pkg: Package, formats: list[str]) -> None:
        self.pkg = pkg
        self.formats = formats
        self.fits: set[str] | None = None  # worksheet parts that passed the screen
        self.book: CalamineWorkbook | None = None

    def _screen(self) -> set[str]:
        """Read every XML member through the Package (its limits apply before calamine
        decompresses anything) and keep the worksheets that pass the screen."""
        if not all(code.lower() in GENERAL_CODES for code in self.formats):
            return set()
        rels = self.pkg.rels("xl/workbook.xml").values()
        if any(kind == "sharedStrings" and t != "xl/sharedStrings.xml" for t, kind in rels):
            return set()  # the expat scan reads that fixed part only
        fits = set()
        for name in sorted(self.pkg.names):
            if not name.endswith((".xml", ".rels")):
                continue
            data = self.pkg.read(name)
            if name.startswith("xl/worksheets/") and name.count("/") == 2:
                if sheet_fits(data):
                    fits.add(name)
            elif name == "xl/sharedStrings.xml" and not _plain(data, b"</sst>"):
                return set()
        return fits

    def grid(self, ref: SheetRef, cells_left: int) -> SheetGrid | None:
        """The sheet's grid (merges included), or None when the expat scan must read it."""
        from python_calamine import CalamineError, CalamineWorkbook

        if self.fits is None:
            self.fits = self._screen()
        if ref.part not in self.fits:
            return None
        try:
            if self.book is None:
                self.book = CalamineWorkbook.from_path(self.pkg.path)
            if ref.name not in self.book.sheet_names:
                return None
            sheet = self.book.get_sheet_by_name(ref.name)
            rows = sheet.to_python(skip_empty_area=False)
            merges = sheet.merged_cell_ranges or []
        except CalamineError:
            return None  # the expat scan reports what is wrong with the part
        try:
            grid = SheetGrid(ref.name, hidden=ref.hidden, rows=_displayed(rows))
        except _NotShown:
            return None
        if grid.cell_count() > cells_left:
            return None  # the expat scan cuts at the exact cell
        grid.merges = [(r1, c1, r2, c2) for (r1, c1), (r2, c2) in merges]
        return grid

    def close(self) -> None:
        if self.book is not None:
            self.book.close()
