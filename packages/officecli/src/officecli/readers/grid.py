"""A sheet as a sparse grid of displayed values, and its split into titled Markdown tables."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import repeat

from officecli.readers.model import Block, Document, ReadOptions
from officecli.readers.ooxml import escape_inline

Merge = tuple[int, int, int, int]  # first row, first col, last row, last col (0-based)


def column_letter(col: int) -> str:
    out = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        out = chr(65 + rem) + out
    return out


def cell_ref(row: int, col: int) -> str:
    return f"{column_letter(col)}{row + 1}"


_COLUMN_OF: dict[str, int] = {}  # letters -> column; at most 18,278 entries (A..XFD)


def parse_ref(ref: str) -> tuple[int, int]:
    """'B3' -> (2, 1). Called for every cell of a sheet, hence the fast path."""
    letters = ref.rstrip("0123456789")
    digits = ref[len(letters) :]
    col = _COLUMN_OF.get(letters) if digits else None
    if col is None:
        if not (digits and letters.isalpha() and letters.isupper() and len(letters) <= 3):
            return _slow_ref(ref)
        col = _COLUMN_OF[letters] = _slow_ref(letters)[1]
    return int(digits) - 1, col


def _slow_ref(ref: str) -> tuple[int, int]:
    letters = "".join(ch for ch in ref if ch.isalpha()).upper()
    digits = "".join(ch for ch in ref if ch.isdigit())
    col = 0
    for ch in letters:
        col = col * 26 + ord(ch) - 64
    return int(digits or "1") - 1, col - 1


def filled_count(rows: list[list[str]]) -> int:
    """Non-empty values in dense rows (C-level counts)."""
    return sum(map(len, rows)) - sum(map(list.count, rows, repeat("")))


@dataclass
class SheetGrid:
    name: str
    hidden: bool = False
    cells: dict[tuple[int, int], str] = field(default_factory=dict)
    merges: list[Merge] = field(default_factory=list)
    hidden_rows: set[int] = field(default_factory=set)
    hidden_cols: set[int] = field(default_factory=set)
    comments: list[tuple[str, str]] = field(default_factory=list)
    # dense rows from A1 when the reader had them (the bulk read): `cells` is then left empty,
    # since building a dict of every cell costs more than the rest of design-diff's read
    rows: list[list[str]] | None = None

    def cell_map(self) -> dict[tuple[int, int], str]:
        """The non-empty cells by (row, column), whichever form the reader gave."""
        if self.rows is None:
            return self.cells
        return {(r, c): v for r, row in enumerate(self.rows) for c, v in enumerate(row) if v}

    def cell_bound(self) -> int:
        """At most cell_count(): the dense rows' cells, empty ones too (no look at each)."""
        if self.rows is None:
            return len(self.cells)
        return sum(map(len, self.rows))

    def cell_count(self) -> int:
        if self.rows is None:
            return len(self.cells)
        return filled_count(self.rows)


def bound_merges(grid: SheetGrid, budget: int) -> int:
    """Cut the sheet's merges to its used rows, and say what applying them costs.

    A merged range is a range: it never reaches past the last row holding a value (its
    value would be repeated into rows of nothing), and a merge starting below that row is
    dropped. Applying one clears the cells it covers (its area, or the sheet's filled
    cells when fewer: merged_cells walks whichever is smaller) and repeats its value down
    its rows; that cost is counted in cells, like the cells themselves (--max-cells).
    Merges past `budget` are dropped; the cost returned is then over `budget`.
    """
    if not grid.merges:  # most sheets: no walk of the rows to count their cells
        return 0
    last_row, filled = _used_rows(grid)
    kept: list[Merge] = []
    cost = 0
    for r1, c1, r2, c2 in grid.merges:
        if r1 > last_row or r2 < r1 or c2 < c1:
            continue
        r2 = min(r2, last_row)
        cost += min((r2 - r1 + 1) * (c2 - c1 + 1), filled) + (r2 - r1)
        if cost > budget:
            break
        kept.append((r1, c1, r2, c2))
    grid.merges = kept
    return cost


def _used_rows(grid: SheetGrid) -> tuple[int, int]:
    """(the last row holding a value, -1 when none; the number of filled cells)."""
    if grid.rows is None:
        return max((r for r, _c in grid.cells), default=-1), len(grid.cells)
    rows = grid.rows
    last = next((r for r in range(len(rows) - 1, -1, -1) if any(rows[r])), -1)
    return last, filled_count(rows)


def merged_cells(grid: SheetGrid, *, escape: bool = True) -> dict[tuple[int, int], str]:
    """Vertical merges repeat the value in every row; horizontal ones keep it in column 1.

    `escape` makes each value Markdown inline text; without it values stay as displayed.
    The merges are those bound_merges kept: each is cleared by walking its area or the
    cells, whichever is smaller, so a range as wide as the sheet costs its cells.
    """
    given = grid.cell_map()
    cells = {k: escape_inline(v) for k, v in given.items()} if escape else dict(given)
    for r1, c1, r2, c2 in grid.merges:
        value = cells.get((r1, c1), "")
        if (r2 - r1 + 1) * (c2 - c1 + 1) <= len(cells):
            for r in range(r1, r2 + 1):
                for c in range(c1, c2 + 1):
                    cells.pop((r, c), None)
        else:
            for key in [k for k in cells if r1 <= k[0] <= r2 and c1 <= k[1] <= c2]:
                del cells[key]
        if value:
            for r in range(r1, r2 + 1):
                cells[(r, c1)] = value
    return cells


def runs(rows: list[int]) -> list[list[int]]:
    """Sorted numbers cut into runs of consecutive ones."""
    bands: list[list[int]] = []
    for r in rows:
        if bands and r == bands[-1][-1] + 1:
            bands[-1].append(r)
        else:
            bands.append([r])
    return bands


def table_blocks(
    cells: dict[tuple[int, int], str], rows: list[int]
) -> list[tuple[list[int], list[int]]]:
    """(rows, columns) of each table: bands of rows split by an empty row, and side-by-side
    blocks split by an entirely empty column (each block re-banded on its own rows)."""
    filled: dict[int, set[int]] = {}
    for (r, c), v in cells.items():
        if v.strip():
            filled.setdefault(r, set()).add(c)
    out: list[tuple[list[int], list[int]]] = []
    for band in runs(rows):
        cols = sorted(set[int]().union(*(filled.get(r, set()) for r in band)))
        groups = runs(cols)
        if len(groups) == 1:
            out.append((band, cols))
            continue
        for group in groups:
            inner = [r for r in band if filled.get(r, set()) & set(group)]
            sub = {k: v for k, v in cells.items() if k[1] in group}
            out += table_blocks(sub, inner)
    return out


def two_row_header(
    grid: SheetGrid, cells: Mapping[tuple[int, int], str], rows: list[int], cols: list[int]
) -> tuple[list[str], list[str]] | None:
    """A header spanning two rows (labels merged across the columns they head, e.g. week
    labels over dated columns): (each column's label, each column's own value under it,
    "" where the column has none of its own); None for a one-row header."""
    first = rows[0]
    merged_above = [m for m in grid.merges if m[0] == first and m[2] == first and m[3] > m[1]]
    if not merged_above or len(rows) < 3:
        return None
    labels, own = [], []
    for c in cols:
        spans = [m for m in merged_above if m[1] <= c <= m[3]]
        label = cells.get((first, spans[0][1] if spans else c), "")
        child = cells.get((rows[1], c), "")
        labels.append(label or child)
        own.append(child if label and child != label else "")
    return labels, own


def table_header(
    grid: SheetGrid, cells: Mapping[tuple[int, int], str], rows: list[int], cols: list[int]
) -> tuple[list[str], int]:
    """One header for a table and how many rows it used: a two-row header's label and
    value joined (`第1週/6/3`), as design-diff keys columns by it."""
    two = two_row_header(grid, cells, rows, cols)
    if two is None:
        return [cells.get((rows[0], c), "") for c in cols], 1
    return [f"{label}/{own}" if own else label for label, own in zip(*two, strict=True)], 2


def _title_rows(cells: dict[tuple[int, int], str], band: list[int], cols: list[int]) -> list[str]:
    """Rows above a table holding a single value (a title merged across the table, or a
    caption): the table's titles, not a header level. Popped from the front of `band`."""
    titles: list[str] = []
    while len(cols) > 1 and len(band) > 2:
        filled = [cells[(band[0], c)] for c in cols if cells.get((band[0], c), "").strip()]
        if len(filled) != 1:
            break
        titles.append(filled[0])
        band.pop(0)
    return titles


def _hidden_note(grid: SheetGrid, band: list[int], cols: list[int], doc: Document) -> None:
    """A line under a table naming its hidden rows and columns, counted for the report."""
    rows = [r for r in band if r in grid.hidden_rows]
    hidden_cols = [c for c in cols if c in grid.hidden_cols]
    parts = []
    if rows:
        parts.append("rows " + ", ".join(str(r + 1) for r in rows))
    if hidden_cols:
        parts.append("columns " + ", ".join(column_letter(c) for c in hidden_cols))
    if parts:
        doc.add(Block("paragraph", f"*(hidden in the workbook: {'; '.join(parts)})*"))
        doc.hidden["rows"] = doc.hidden.get("rows", 0) + len(rows)
        doc.hidden["columns"] = doc.hidden.get("columns", 0) + len(hidden_cols)


def sheet_blocks(grid: SheetGrid, doc: Document, options: ReadOptions) -> None:
    """Append a sheet's section: heading, tables with their titles and ranges, comments.
    Hidden content is kept and marked unless `skip_hidden`."""
    title = escape_inline(grid.name) + (" (hidden)" if grid.hidden else "")
    doc.add(Block("heading", title, level=2))
    if grid.hidden:
        doc.hidden["sheets"] = doc.hidden.get("sheets", 0) + 1
    cells = merged_cells(grid)
    if options.skip_hidden:
        cells = {
            k: v
            for k, v in cells.items()
            if k[0] not in grid.hidden_rows and k[1] not in grid.hidden_cols
        }
    header_row = options.header_rows.get(grid.name, options.header_rows.get("", 0)) - 1
    rows = sorted({r for (r, _c), v in cells.items() if v.strip()})
    if header_row > 0:
        for r in [r for r in rows if r < header_row]:
            line = " ".join(cells[(r, c)] for c in sorted(c for (rr, c) in cells if rr == r))
            doc.add(Block("paragraph", line.strip()))
        rows = [r for r in rows if r >= header_row]
    count = 0
    for band, cols in table_blocks(cells, rows):
        if len(band) == 1 and len(cols) == 1:
            doc.add(Block("paragraph", cells[(band[0], cols[0])]))
            continue
        count += 1
        span = f"{cell_ref(band[0], cols[0])}:{cell_ref(band[-1], cols[-1])}"
        doc.add(Block("heading", f"Table {count} ({span})", level=3))
        body = list(band)
        for line in _title_rows(cells, body, cols):
            doc.add(Block("paragraph", f"**{line}**"))
        two = two_row_header(grid, cells, body, cols)
        if two is None:  # the first row is the header
            head, used = [[cells.get((body[0], c), "") for c in cols]], 1
        else:  # the labels are the header, each column's own value its first row
            head, used = list(two), 2
        table = head + [[cells.get((r, c), "") for c in cols] for r in body[used:]]
        doc.add(Block("table", rows=table))
        if not options.skip_hidden:
            _hidden_note(grid, band, cols, doc)
    for ref, text in grid.comments:
        doc.add(Block("list_item", f"Comment {ref}: {text}"))
