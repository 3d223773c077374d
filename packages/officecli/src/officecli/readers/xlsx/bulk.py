"""A worksheet's displayed values read in bulk: a few passes in C over its bytes instead
of expat calling Python for every cell, giving exactly what the expat scan (sheet.py)
gives, or nothing (then the scan reads the sheet).

How it stays exact:
- The sheet is read as it is inflated, a batch of rows at a time. The value of every cell
  of a batch (the text of a <v>, or of the one <t> of an <is>) is cut out by one regex
  split, and all of them are decoded by one expat parse: entities, character references,
  line ends and the characters XML forbids are judged by expat itself.
- What is left is markup. Split into rows, a row with its number taken out (from its own
  r and its cells' references) is a *shape*, and a sheet's rows share a few shapes. Each
  distinct shape is read by the scan itself (SheetScan) inside the sheet's own head and
  tail, a marker standing for each value: kinds of cells, columns (cells without r too),
  well-formedness and namespaces are judged by the code a full scan runs. A reference
  that was not of its own row keeps its digits, and is refused.
- The head and tail (columns, merges) are read by the scan as well.
Refused, and so read by the scan: formulas, hidden rows, rows out of order, a cell given
twice, any number format but General (a number's display would need its cell's style),
an encoding other than UTF-8, a box from A1 past MAX_BOX cells, and more than
MAX_PENDING bytes without a </row>.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import accumulate, repeat
from operator import getitem, itemgetter, lt, sub
from typing import TYPE_CHECKING, cast

from officecli.readers.grid import SheetGrid
from officecli.readers.safety import ReaderError, scan_xml_bytes
from officecli.readers.xlsx.sheet import SheetScan, is_cell

if TYPE_CHECKING:
    from officecli.readers.grid import Merge

MAX_BOX = 4_000_000  # rows x columns from A1 to the farthest cell, as dense rows
BATCH = 1024  # rows read together (one split, one decode): about a megabyte, kept in cache
CHUNK = 1 << 20  # bytes of a sheet inflated at a time: its rows are read as they arrive
MAX_PENDING = 16 << 20  # bytes without a </row> (a row, the tail) held before the scan reads it
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
        # what the row made of given values depends on: none when values are shown through
        # `display` (a shared string is an index into each workbook's own table)
        self.signature = None if self.shown else (tuple(self.picks), tuple(self.tail))

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


class _Values:
    """Cuts the values out of rows: the markup with a SLOT where each value was, and the
    values (as in the XML). Both kinds together (a <v> and an inline <is><t>): an opener and
    a closer that do not pair leave a shape not well formed. A sheet's rows mostly hold the
    same kinds: what the first batch holds (a search of it) is cut from the next ones, and a
    batch whose shapes still hold the other kind (a few shapes: no search of its bytes) is
    cut again for both, as are those after it."""

    def __init__(self) -> None:
        self.kinds: tuple[bool, bool] | None = None  # (inline, plain)

    def split(self, data: bytes) -> tuple[bytes, list[bytes]]:
        if self.kinds is None:
            self.kinds = (b"<is>" in data, b"<v>" in data)
        inline, plain = self.kinds
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

    def left_in(self, shapes: Iterable[bytes]) -> bool:
        """Whether these shapes hold a kind that was not cut (then both are, from now)."""
        inline, plain = self.kinds or (True, True)
        left = [] if inline and plain else [b"<v>"] if inline else [b"<is>"]
        if any(kind in shape for kind in left for shape in shapes):
            self.kinds = (True, True)
            return True
        return False


def _shapes(markup: bytes) -> tuple[list[bytes], dict[bytes, bytes]]:
    """Each row's shape, one copy of each (a sheet's rows share a few), and the distinct."""
    shapes = markup.split(b"</row>")
    alike: dict[bytes, bytes] = {}
    return list(map(alike.setdefault, shapes, shapes)), alike


class _Rows:
    """A worksheet's rows as its bytes are inflated: `batches` gives them a chunk's worth
    at a time, each row without its </row> (a value holds no markup, so no </row> can be
    inside one); then `head` holds the bytes through <sheetData> and `tail` the bytes after
    the last </row>. `refused`: the bulk read cannot read these bytes."""

    def __init__(self, chunks: Iterable[bytes]) -> None:
        self.chunks = iter(chunks)
        self.head = b""
        self.tail = b""
        self.refused = False

    def batches(self) -> Iterator[tuple[list[bytes], tuple[list[int], list[bytes]] | None]]:
        """Each batch of rows, with their numbers (see _numbers)."""
        carry = self._head()
        if self.refused or self.tail:  # refused, or a sheet without rows
            return
        while True:
            rows = carry.split(b"</row>")
            rest = rows.pop()
            if rows:
                yield rows, _numbers(rows, carry, len(carry) - len(rest))
            chunk = next(self.chunks, None)
            if chunk is None:
                break
            if NUMBER in chunk or len(rest) > MAX_PENDING:
                self.refused = True
                return
            carry = rest + chunk
        if rest.rfind(b"</sheetData>") < 0:
            self.refused = True
        self.tail = rest

    def _head(self) -> bytes:
        """The bytes after <sheetData>, once the head is read; a sheet without one
        (<sheetData/>, or none the bulk read knows) is read whole here."""
        data = bytearray()
        for chunk in self.chunks:
            if NUMBER in chunk:
                break
            data += chunk
            start = data.find(b"<sheetData>", max(0, len(data) - len(chunk) - 10)) + 11
            if start >= 11:
                self.head = bytes(data[:start])
                self.refused = data.find(b"</row>", 0, start) >= 0  # a row before the rows
                return bytes(data[start:])
        else:
            empty = data.find(b"<sheetData/>")
            if empty >= 0 and b"</row>" not in data:
                self.head = bytes(data[:empty]) + b"<sheetData>"
                self.tail = b"</sheetData>" + data[empty + 12 :]
                return b""
        self.refused = True
        return b""


def _sheet(rows: _Rows, display: Display, label: str) -> _Sheet | None:
    """What the head and tail say, read by the scan (merges, hidden columns)."""
    encoding = _ENCODING.match(rows.head)
    if encoding and encoding[1].lower() not in (b"utf-8", b"utf8"):
        return None
    scan = _ShapeScan()
    try:
        scan_xml_bytes(rows.head + rows.tail, scan, label)
    except ReaderError:
        return None
    if scan.cells or scan.hidden_rows:
        return None
    return _Sheet(rows.head, rows.tail, scan.merges, scan.hidden_cols, display, label)


Entry = tuple[bytes, list[str]]  # a row's shape, and its values


class RowCache:
    """What the bulk reads of two versions of a workbook share: mostly the same rows.
    `entries`: a row's bytes without its number -> its shape and values. `built`: per
    shape, the signature of the plan that made rows of its values, and those rows by the
    identity of their values (kept alive in `values`, so no identity is reused), so that a
    version whose plan is the same takes the rows the other one made."""

    def __init__(self) -> None:
        self.entries: dict[bytes, Entry] = {}
        self.built: dict[bytes, tuple[object, dict[int, list[str]]]] = {}
        self.values: dict[int, list[str]] = {}

    def clear(self) -> None:
        self.entries.clear()
        self.built.clear()
        self.values.clear()


def bulk_grid(
    chunks: Iterable[bytes],
    name: str,
    hidden: bool,
    display: Display,
    label: str,
    cache: RowCache,
    limit: int,
) -> SheetGrid | None:
    """The sheet (its bytes, as they are inflated) as a grid (dense rows from A1, merges),
    or None when the scan must read it. `cache` holds the rows already read (of the other
    workbook of a diff, mostly the same): a row found there is not read again. Rows are
    read as they arrive, BATCH at a time, and no more than `limit` values (--max-cells):
    memory stays bounded by what is kept."""
    source = _Rows(chunks)
    entries: list[Entry] = []
    numbers: list[int] = []
    read = 0  # values read: past `limit`, the scan reads the sheet (and cuts it there)
    values = _Values()
    for rows, found in source.batches():
        if found is None:
            return None  # a row without a number where it starts
        batch, quoted = found
        if not all(map(lt, [numbers[-1] if numbers else 0, *batch], batch)):
            return None  # rows out of order
        keys = list(map(bytes.replace, rows, quoted, repeat(b'\x01"')))
        known = list(map(cache.entries.get, keys))
        missed = [i for i, entry in enumerate(known) if entry is None]
        for at in range(0, len(missed), BATCH):
            group = missed[at : at + BATCH]
            got = _read_rows([keys[i] for i in group], [batch[i] for i in group], cache, values)
            if got is None:
                return None
            read += got[1]
            if read > limit:
                return None
            for i, entry in zip(group, got[0], strict=True):
                known[i] = entry
        entries += cast("list[Entry]", known)  # every row is read now
        numbers += batch
    sheet = None if source.refused else _sheet(source, display, label)
    if sheet is None:
        return None
    plans: dict[bytes, _Plan] = {}
    for shape in set(map(itemgetter(0), entries)):
        plan = _plan(sheet, shape)
        if plan is None:  # a shape the scan would read otherwise
            return None
        plans[shape] = plan
    grid_rows = _built_rows(entries, plans, cache)
    grid = SheetGrid(name, hidden=hidden, merges=sheet.merges, hidden_cols=sheet.hidden_cols)
    widths = {plan.width for plan in plans.values()}
    return _grid(numbers, grid_rows, max(widths, default=0), len(widths) > 1, grid)


def _built_rows(
    entries: list[Entry], plans: dict[bytes, _Plan], cache: RowCache
) -> list[list[str]]:
    """Each entry's row by its shape's plan. A row the other version's read made of the
    same values by an equal plan is taken as it is, looked up in C: no call per row."""
    values = list(map(itemgetter(1), entries))
    if all(plan.as_read for plan in plans.values()):  # the values are the row
        return values
    ids = list(map(id, values))
    made: dict[int, list[str]] = {}
    for shape, plan in plans.items():
        known = cache.built.get(shape)
        if known is not None and plan.signature is not None and known[0] == plan.signature:
            made.update(known[1])
    rows: list[list[str] | None] = list(map(made.get, ids)) if made else [None] * len(ids)
    for i in [i for i, row in enumerate(rows) if row is None]:
        shape, row_values = entries[i]
        plan = plans[shape]
        rows[i] = built = plan.row(row_values)
        if plan.signature is not None:
            known = cache.built.get(shape)
            if known is None or known[0] != plan.signature:
                known = cache.built[shape] = (plan.signature, {})
            known[1][ids[i]] = built
    cache.values.update(zip(ids, values, strict=True))
    return cast("list[list[str]]", rows)


def _numbers(rows: list[bytes], data: bytes, end: int) -> tuple[list[int], list[bytes]] | None:
    """The rows' numbers, and each as written followed by its quote (what a row's r and its
    cells' references hold); None when a row has none where it starts. Rows numbered one
    after another (most sheets) are checked by how each starts, in C: its start tag, which
    is not an empty row's (<row/>, then the row's own tag). Else one search of the batch
    (`data` up to `end`) pairs a number with each row when it finds one each, or each row
    is searched alone; a number taken from another row than its own leaves the references
    of the row's cells with their digits, and the shape is refused."""
    first = _ROW_NUMBER.match(rows[0])
    if first:
        at = int(first[1])
        quoted = [b'%d"' % n for n in range(at, at + len(rows))]
        closers = map(sub, map(bytes.find, rows, repeat(b">")), repeat(1))  # before each first >
        if all(map(bytes.startswith, rows, map(b'<row r="'.__add__, quoted))) and (
            b"/" not in bytes(map(getitem, rows, closers))
        ):
            return list(range(at, at + len(rows))), quoted
    texts: list[bytes] = _ROW_NUMBER.findall(data, 0, end)
    if len(texts) != len(rows):
        starts = [_ROW_START.match(row) for row in rows]
        if None in starts:
            return None
        texts = [start[1] for start in starts]  # type: ignore[index]
    return list(map(int, texts)), [text + b'"' for text in texts]


def _read_rows(
    keys: list[bytes], numbers: list[int], cache: RowCache, cut: _Values
) -> tuple[list[Entry], int] | None:
    """The rows of these keys (at these numbers) read together (one split, one decode of
    their values), each as its shape and values, and put in the cache; but for a row whose
    values hold its own number followed by a quote: that is not the same row at another
    number. And how many values they hold; None when a value is not well formed."""
    data = b"</row>".join(keys)
    markup, raw = cut.split(data)
    shapes, alike = _shapes(markup)
    if cut.left_in(alike):
        markup, raw = cut.split(data)
        shapes, alike = _shapes(markup)
    counts = {shape: shape.count(SLOT) for shape in alike}
    slots = list(map(counts.__getitem__, shapes))
    joined = SEP.encode().join(raw)
    apart: set[int] = set()
    if NUMBER in joined:  # a value held the row's number and a quote: put them back
        at = 0
        for i, count in enumerate(slots):
            for j in range(at, at + count):
                if NUMBER in raw[j]:
                    raw[j] = raw[j].replace(b'\x01"', b'%d"' % numbers[i])
                    apart.add(i)
            at += count
        joined = SEP.encode().join(raw)
    values = _decoded(joined, len(raw)) if raw else []
    if values is None or len(shapes) != len(keys) or sum(slots) != len(raw):
        return None
    ends = list(accumulate(slots))
    out = list(zip(shapes, map(values.__getitem__, map(slice, [0, *ends], ends)), strict=True))
    cache.entries.update(zip(keys, out, strict=True))
    for i in apart:
        cache.entries.pop(keys[i], None)
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
