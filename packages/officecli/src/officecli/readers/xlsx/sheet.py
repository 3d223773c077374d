"""Streaming scans of the two big parts of a workbook: a worksheet and the shared strings.

expat callbacks rather than element trees: a 300,000-cell sheet is read several times
faster, in memory bounded by one cell. Phonetic guides (<rPh>, furigana) are not text.
"""

from __future__ import annotations

from collections.abc import Callable

from officecli.readers.grid import parse_ref
from officecli.readers.safety import StopScan

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_C, _V, _F, _IS, _T, _RPH = (MAIN + n for n in ("c", "v", "f", "is", "t", "rPh"))
_ROW, _COL, _MERGE, _SI = (MAIN + n for n in ("row", "col", "mergeCell", "si"))
_TRUE = ("1", "true")


class StringsScan:
    """sharedStrings.xml: the text of each <si>, without its phonetic runs."""

    def __init__(self) -> None:
        self.strings: list[str] = []
        self.parts: list[str] = []
        self.in_t = False
        self.in_rph = False

    def start(self, name: str, attrs: dict[str, str]) -> None:
        if name == _T and not self.in_rph:
            self.in_t = True
        elif name == _RPH:
            self.in_rph = True
        elif name == _SI:
            self.parts = []

    def end(self, name: str) -> None:
        if name == _T:
            self.in_t = False
        elif name == _RPH:
            self.in_rph = False
        elif name == _SI:
            self.strings.append("".join(self.parts))

    def data(self, text: str) -> None:
        if self.in_t:
            self.parts.append(text)


def is_cell(name: str) -> bool:
    """Whether a scanned element name is a worksheet cell (<c>)."""
    return name == _C


# (row, col, type, style, value, inline text, formula) -> whether to go on
CellSink = Callable[[int, int, str, int, str, str, str], bool]


class SheetScan:
    """A worksheet: each cell handed to `sink`; hidden rows/columns and merges collected."""

    def __init__(self, sink: CellSink) -> None:
        self.sink = sink
        self.hidden_rows: set[int] = set()
        self.hidden_cols: set[int] = set()
        self.merges: list[tuple[int, int, int, int]] = []
        self.row = 0
        self.col = -1
        self.kind = "n"
        self.style = 0
        self.buffer: str | None = None  # text of the <v>, <f> or <t> being read
        self.value = self.inline = self.formula = ""
        self.in_rph = False
        self.in_is = False

    def start(self, name: str, attrs: dict[str, str]) -> None:
        if name == _C:
            ref = attrs.get("r")
            if ref:
                self.row, self.col = parse_ref(ref)
            else:  # r is optional: the cell after the previous one
                self.col += 1
            self.kind = attrs.get("t", "n")
            self.style = int(attrs.get("s", "0") or 0)
            self.value = self.inline = self.formula = ""
        elif name in (_V, _F) or (name == _T and self.in_is and not self.in_rph):
            self.buffer = ""
        elif name == _IS:
            self.in_is = True
        elif name == _RPH:
            self.in_rph = True
        elif name == _ROW:
            self.row = int(attrs.get("r", self.row + 2)) - 1
            self.col = -1
            if attrs.get("hidden") in _TRUE:
                self.hidden_rows.add(self.row)
        elif name == _COL and attrs.get("hidden") in _TRUE:
            first, last = int(attrs.get("min", "1")) - 1, int(attrs.get("max", "1"))
            self.hidden_cols.update(range(first, min(last, first + 16384)))
        elif name == _MERGE:
            first_ref, _, last_ref = attrs.get("ref", "").partition(":")
            r1, c1 = parse_ref(first_ref)
            r2, c2 = parse_ref(last_ref or first_ref)
            self.merges.append((r1, c1, r2, c2))

    def end(self, name: str) -> None:
        if name == _C:
            if not self.sink(
                self.row, self.col, self.kind, self.style, self.value, self.inline, self.formula
            ):
                raise StopScan
        elif self.buffer is not None and name in (_V, _F, _T):
            text = self.buffer
            self.buffer = None
            if name == _V:
                self.value = text
            elif name == _F:
                self.formula = text
            else:
                self.inline += text
        elif name == _IS:
            self.in_is = False
        elif name == _RPH:
            self.in_rph = False

    def data(self, text: str) -> None:
        if self.buffer is not None:
            self.buffer += text
