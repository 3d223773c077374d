"""A worksheet's displayed values read in bulk: a few passes in C over its bytes instead
of expat calling Python for every cell, giving exactly what the expat scan (sheet.py)
gives, or nothing (then the scan reads the sheet).

How it stays exact:
- The value of every cell (the text of a <v>, or of the one <t> of an <is>) is cut out by
  one regex split, and all of them are decoded by one expat parse: entities, character
  references, line ends and the characters XML forbids are judged by expat itself.
- What is left is markup. Split into rows, a row with its number taken out (from its own
  r and its cells' references) is a *shape*, and a sheet's rows share a few shapes. Each
  distinct shape is read by the scan itself (SheetScan) inside the sheet's own head and
  tail, a marker standing for each value: kinds of cells, columns (cells without r too),
  well-formedness and namespaces are judged by the code a full scan runs. A reference
  that was not of its own row keeps its digits, and is refused.
- The head and tail (columns, merges) are read by the scan as well.
Refused, and so read by the scan: formulas, hidden rows, rows out of order, a cell given
twice, any number format but General (a number's display would need its cell's style),
an encoding other than UTF-8, and a box from A1 past MAX_BOX cells.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import accumulate, repeat
from operator import itemgetter, lt
from typing import TYPE_CHECKING

from officecli.readers.grid import SheetGrid
from officecli.readers.safety import ReaderError, scan_xml_bytes
from officecli.readers.xlsx.sheet import SheetScan, is_cell

if TYPE_CHECKING:
    from officecli.readers.grid import Merge

MAX_BOX = 4_000_000  # rows x columns from A1 to the farthest cell, as dense rows
BATCH = 1024  # rows read together (one split, one decode): about a megabyte, kept in cache
GENERAL_CODES = ("General", "@", "")  # number formats format_value shows as general()
SLOT, NUMBER = b"\x00", b"\x01"  # where a value was cut out, and a row number taken out:
# neither byte can stand in XML, so a sheet holding one is not well formed (refused)
SEP = "\ufdd0"  # between the values in their one expat parse (a noncharacter)
MARK = "\ufdd1"  # a value in a shape as the scan reads it: MARK index MARK
ROW_MARK = "\ufdd2"  # the row number in a shape as the scan reads it
_MARKED = re.compile(MARK + r"([0-9]+)" + MARK)
_OWN_REF = re.compile("[A-Z]{1,3}" + ROW_MARK)  # a reference to a cell of its own row
# a value with its markup; where a sheet has one kind of value, the pattern starts with a
# literal (searched fast) and the markup put back is always the same
_INLINE = re.compile(rb'<is><t(?: xml:space="preserve")?>([^<]*)</t></is>')
_PLAIN = re.compile(rb"<v>([^<]*)</v>")
_BOTH = re.compile(rb'(<is><t(?: xml:space="preserve")?>|<v>)([^<]*)(</t></is>|</v>)')
_ROW_NUMBER = re.compile(rb'<row r="([0-9]{1,7})"')
_ROW_START = re.compile(rb'[ \t\r\n]*(?:<row\s[^>]*/>[ \t\r\n]*)*<row r="([0-9]{1,7})"')
_ENCODING = re.compile(rb"""^(?:\xef\xbb\xbf)?<\?xml[^>]*encoding=["']([^"']*)""")

Display = Callable[[str, str], str]  # (kind, raw value) -> displayed text


@dataclass
class _Sheet:
    """What the head and tail of a worksheet say, and how its rows are read."""

    head: bytes
    tail: bytes
    merges: list[Merge]
    hidden_cols: set[int]
    display: Display
    label: str


class _ShapeScan(SheetScan):
    """SheetScan over a shape: cells collected; a reference to another row is refused."""

    def __init__(self) -> None:
        super().__init__(self._cell)
        self.cells: list[tuple[int, int, str, str, str, str]] = []
        self.refused = False

    def start(self, name: str, attrs: dict[str, str]) -> None:
        if is_cell(name) and "r" in attrs and not _OWN_REF.fullmatch(attrs["r"]):
            self.refused = True
        if ROW_MARK in "".join(attrs.values()):
            attrs = {key: value.replace(ROW_MARK, "1") for key, value in attrs.items()}
        super().start(name, attrs)

    def _cell(self, row: int, col: int, kind: str, _s: int, raw: str, inline: str, f: str) -> bool:
        self.cells.append((row, col, kind, raw, inline, f))
        return True


@dataclass
class _Plan:
    """How a shape's values become a row `width` wide: `slots` values, some shown through
    `display` (a number, a shared string), then each put in its column."""

    slots: int
    width: int
    picks: list[int]  # per column: an index into the values, the shape's texts, then ""
    texts: list[str]
    kinds: list[str | None]  # per value: its cell's kind when `display` shows it
    display: Display

    def __post_init__(self) -> None:
        self.shown = any(self.kinds)
        self.as_read = self.picks == list(range(self.slots)) and not self.shown
        self.tail = [*self.texts, ""]
        self.pick = itemgetter(*self.picks) if self.width > 1 else None

    def row(self, values: list[str]) -> list[str]:
        if self.as_read:
            return values
        if self.shown:
            show = self.display
            values = [show(k, v) if k else v for k, v in zip(self.kinds, values, strict=True)]
        values = values + self.tail  # the values may be another row's too: not changed
        if self.pick is None:
            return [values[self.picks[0]]] if self.picks else []
        return list(self.pick(values))


def _slot(text: str) -> int | None:
    """The value a text stands for (-1: none, the text is the shape's own; None: mixed)."""
    if MARK not in text:
        return -1
    found = _MARKED.fullmatch(text)
    return int(found[1]) if found else None


def _plan(sheet: _Sheet, shape: bytes) -> _Plan | None:
    if any(mark.encode() in shape for mark in (MARK, ROW_MARK)):
        return None  # the sheet's own text would pass for a marker
    pieces = shape.split(SLOT)
    marked = [pieces[0]]
    for i, piece in enumerate(pieces[1:]):
        marked += [f"{MARK}{i}{MARK}".encode(), piece]
    scan = _ShapeScan()
    doc = sheet.head + b"".join(marked).replace(NUMBER, ROW_MARK.encode()) + b"</row>" + sheet.tail
    try:
        scan_xml_bytes(doc, scan, sheet.label)
    except ReaderError:
        return None
    if scan.refused or scan.hidden_rows or scan.merges != sheet.merges:
        return None
    if scan.hidden_cols != sheet.hidden_cols:
        return None
    slots = len(pieces) - 1
    at: dict[int, int] = {}  # column -> index into values, texts, ""
    texts: list[str] = []
    kinds: list[str | None] = [None] * slots
    for row, col, kind, raw, inline, formula in scan.cells:
        text = inline if kind == "inlineStr" else raw
        slot = _slot(text)
        if row != 0 or formula or col in at or slot is None or ROW_MARK in text:
            return None
        if slot >= 0:
            at[col] = slot
            kinds[slot] = None if kind == "inlineStr" else kind
        else:
            at[col] = slots + len(texts)
            texts.append(text if kind == "inlineStr" else sheet.display(kind, raw))
    width = max(at, default=-1) + 1
    picks = [at.get(col, slots + len(texts)) for col in range(width)]
    return _Plan(slots, width, picks, texts, kinds, sheet.display)


def _decoded(joined: bytes, count: int) -> list[str] | None:
    """`count` values joined by SEP, as text, by one expat parse; None when one is not
    well formed (or holds the separator)."""
    from xml.parsers import expat

    texts: list[str] = []
    parser = expat.ParserCreate()
    parser.buffer_text = True
    parser.buffer_size = len(joined) + 1  # one call for all of it
    parser.CharacterDataHandler = texts.append
    try:
        for part, final in ((b"<v>", False), (joined, False), (b"</v>", True)):
            parser.Parse(part, final)  # three calls: no copy of the values
    except expat.ExpatError:
        return None
    out = "".join(texts).split(SEP)
    return out if len(out) == count else None


def _split(data: bytes) -> tuple[bytes, list[bytes]]:
    """The markup with a SLOT where each value was, and the values (as in the XML). Both
    kinds together: an opener and a closer that do not pair leave a shape not well formed."""
    inline, plain = b"<is>" in data, b"<v>" in data
    if inline and plain:
        parts = _BOTH.split(data)
        values = parts[2::4]
        parts[2::4] = [SLOT] * len(values)
        return b"".join(parts), values
    if inline:
        parts = _INLINE.split(data)
        return (b"<is><t>" + SLOT + b"</t></is>").join(parts[0::2]), parts[1::2]
    parts = _PLAIN.split(data)
    return (b"<v>" + SLOT + b"</v>").join(parts[0::2]), parts[1::2]


def _head_and_tail(data: bytes, display: Display, label: str) -> tuple[_Sheet, list[bytes]] | None:
    """The sheet's head and tail read by the scan, and its rows (each without </row>;
    a value holds no markup, so none of these can be inside one)."""
    start = data.find(b"<sheetData>") + 11
    if start < 11:  # a sheet without rows, or none the bulk read knows
        empty = data.find(b"<sheetData/>")
        if empty < 0:
            return None
        data = data[:empty] + b"<sheetData></sheetData>" + data[empty + 12 :]
        start = empty + 11
    rows = data.split(b"</row>")
    last = rows.pop()
    end = last.rfind(b"</sheetData>")
    if end < 0 or len(rows[0] if rows else last) < start:
        return None
    if rows:
        rows[0] = rows[0][start:]
        head, tail = data[:start], last  # empty rows may end the sheet data
    else:
        head, tail = data[:start], last[start:]
    encoding = _ENCODING.match(head)
    if encoding and encoding[1].lower() not in (b"utf-8", b"utf8"):
        return None
    scan = _ShapeScan()
    try:
        scan_xml_bytes(head + tail, scan, label)
    except ReaderError:
        return None
    if scan.cells or scan.hidden_rows:
        return None
    return _Sheet(head, tail, scan.merges, scan.hidden_cols, display, label), rows


Entry = tuple[bytes, list[str]]  # a row's shape, and its values
RowCache = dict[bytes, Entry]  # a row's bytes without its number -> what they hold


def bulk_grid(
    data: bytes,
    name: str,
    hidden: bool,
    display: Display,
    label: str,
    cache: RowCache,
    limit: int,
) -> SheetGrid | None:
    """The sheet's grid (dense rows from A1, merges), or None when the scan must read it.
    `cache` holds the rows already read (of the other workbook of a diff, mostly the
    same): a row found there is not read again. Rows are read BATCH at a time, and no
    more than `limit` values (--max-cells): memory stays bounded by what is kept."""
    if NUMBER in data:
        return None
    found = _head_and_tail(data, display, label)
    if found is None:
        return None
    sheet, chunks = found
    plans: dict[bytes, _Plan | None] = {}

    def row(entry: Entry) -> list[str] | None:
        shape, values = entry
        plan = plans[shape] if shape in plans else plans.setdefault(shape, _plan(sheet, shape))
        return None if plan is None else plan.row(values)

    texts = _row_numbers(data, chunks)
    numbers = list(map(int, texts)) if texts is not None else []
    if texts is None or not all(map(lt, [0, *numbers], numbers)):
        return None  # rows out of order, or one without a number
    rows: list[list[str] | None] = []
    missed: list[int] = []  # rows not in the cache, and their keys
    keys: list[bytes] = []
    for chunk, number in zip(chunks, texts, strict=True):
        key = chunk.replace(number + b'"', b'\x01"')  # its r, its cells' references
        entry = cache.get(key)
        if entry is None:
            missed.append(len(rows))
            keys.append(key)
            rows.append(None)
        else:
            rows.append(row(entry))
    read = 0  # values read: past `limit`, the scan reads the sheet (and cuts it there)
    for at in range(0, len(missed), BATCH):
        found_rows = _read_rows(keys[at : at + BATCH], numbers, missed[at : at + BATCH], cache)
        if found_rows is None:
            return None
        entries, count = found_rows
        read += count
        if read > limit:
            return None
        for i, entry in zip(missed[at : at + BATCH], entries, strict=True):
            rows[i] = row(entry)
    if None in rows:  # a shape the scan would read otherwise
        return None
    grid = SheetGrid(name, hidden=hidden, merges=sheet.merges, hidden_cols=sheet.hidden_cols)
    widths = {plan.width for plan in plans.values() if plan is not None}
    return _grid(numbers, rows, max(widths, default=0), len(widths) > 1, grid)  # type: ignore[arg-type]


def _row_numbers(data: bytes, chunks: list[bytes]) -> list[bytes] | None:
    """Each row's number (as written): one search of the sheet when each row has one
    (a number taken from another row than its own leaves the references of the row's
    cells with their digits, and the shape is refused), else row by row."""
    found = _ROW_NUMBER.findall(data)
    if len(found) == len(chunks):
        return found
    starts = [_ROW_START.match(chunk) for chunk in chunks]
    return None if None in starts else [start[1] for start in starts]  # type: ignore[index]


def _read_rows(
    keys: list[bytes], numbers: list[int], missed: list[int], cache: RowCache
) -> tuple[list[Entry], int] | None:
    """The rows `missed` (by their keys) read together (one split, one decode of their
    values), each as its shape and values, and put in the cache; but for a row whose
    values hold its own number followed by a quote: that is not the same row at another
    number. And how many values they hold; None when a value is not well formed."""
    markup, raw = _split(b"</row>".join(keys))
    shapes = markup.split(b"</row>")
    slots = list(map(bytes.count, shapes, repeat(SLOT)))
    joined = SEP.encode().join(raw)
    apart: set[int] = set()
    if NUMBER in joined:  # a value held the row's number and a quote: put them back
        at = 0
        for i, count in enumerate(slots):
            for j in range(at, at + count):
                if NUMBER in raw[j]:
                    raw[j] = raw[j].replace(b'\x01"', b'%d"' % numbers[missed[i]])
                    apart.add(i)
            at += count
        joined = SEP.encode().join(raw)
    values = _decoded(joined, len(raw)) if raw else []
    if values is None or len(shapes) != len(keys) or sum(slots) != len(raw):
        return None
    ends = list(accumulate(slots))
    out = list(zip(shapes, map(values.__getitem__, map(slice, [0, *ends], ends)), strict=True))
    cache.update(zip(keys, out, strict=True))
    for i in apart:
        cache.pop(keys[i], None)
    return out, len(raw)


def _grid(
    numbers: list[int], rows: list[list[str]], width: int, ragged: bool, grid: SheetGrid
) -> SheetGrid | None:
    """The rows as a dense box from A1 (every row as wide as the widest)."""
    height = numbers[-1] if numbers else 0
    if height * width > MAX_BOX:
        return None
    if height == len(rows) and not ragged:  # rows 1..n, all as wide: as they are
        grid.rows = rows
        return grid
    dense: list[list[str]] = []
    for number, values in zip(numbers, rows, strict=True):
        while len(dense) < number - 1:
            dense.append([""] * width)
        dense.append(values + [""] * (width - len(values)) if len(values) < width else values)
    grid.rows = dense
    return grid
