"""A sheet as dense rows from A1 (the bulk read's box), asked what grid.py asks of a dict of
cells: the merges filled in, the blocks of the tables, the cells as a mapping.

The answers are the same as grid.py's (the design-diff tests read workbooks both ways);
they come from row slices, joins and transposes that run in C, where the dict costs a
Python tuple per cell. A value counts as filled when `v.strip()` is not empty, and a
joined run of values strips to empty exactly when each of them does.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import compress
from operator import itemgetter, not_

from officecli.readers.grid import Merge, filled_count, runs

PROBE_ROWS = 64  # rows sampled to choose the column filled_rows looks at first


class RowCells(Mapping[tuple[int, int], str]):
    """Dense rows as the mapping of their non-empty cells by (row, column)."""

    def __init__(self, rows: list[list[str]]) -> None:
        self.rows = rows

    def __getitem__(self, key: tuple[int, int]) -> str:
        r, c = key
        if r >= 0 and c >= 0 and r < len(self.rows) and c < len(self.rows[r]):
            value = self.rows[r][c]
            if value:
                return value
        raise KeyError(key)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        for r, row in enumerate(self.rows):
            for c, value in enumerate(row):
                if value:
                    yield r, c

    def __len__(self) -> int:
        return filled_count(self.rows)

    def filled_rows(self) -> list[int]:
        """The rows with a value that is not blank (selected in C: no bytecode per row).
        One column is looked at first, the one most filled in the first rows: a row filled
        there is filled, and only the others are joined whole (joining every row cost
        more than the rest of finding the tables)."""
        rows = self.rows
        if not rows or not all(rows):  # a row without columns: each is joined
            return list(compress(range(len(rows)), map(str.strip, map("".join, rows))))
        sample = rows[:PROBE_ROWS]
        width = min(map(len, sample))
        probe = max(range(width), key=lambda c: sum(1 for row in sample if row[c].strip()))
        filled = list(map(str.strip, map(itemgetter(probe), rows)))  # text: filled
        for r in compress(range(len(rows)), map(not_, filled)):
            filled[r] = "".join(rows[r]).strip()
        return list(compress(range(len(rows)), filled))

    def blocks(
        self, rows: list[int], lo: int = 0, hi: int = -1
    ) -> list[tuple[list[int], list[int]]]:
        """grid.table_blocks over columns lo..hi-1: bands of rows split by an empty row,
        side by side blocks split by an empty column, each re-banded on its own rows."""
        hi = max(map(len, self.rows), default=0) if hi < 0 else hi
        out: list[tuple[list[int], list[int]]] = []
        for band in runs(rows):
            lines = self.rows[band[0] : band[-1] + 1]  # a band is a run of rows
            # a column is filled when a value strips to text: C-level, stops at the first
            cols = [c for c in range(lo, hi) if any(map(str.strip, map(itemgetter(c), lines)))]
            groups = runs(cols)
            if len(groups) == 1:
                out.append((band, cols))
                continue
            for group in groups:
                first, end = group[0], group[-1] + 1
                inner = [r for r in band if "".join(self.rows[r][first:end]).strip()]
                out += self.blocks(inner, first, end)
        return out

    def free(self, held: dict[int, frozenset[int]]) -> dict[tuple[int, int], str]:
        """The filled cells outside the columns `held` on their row (the tables' cells)."""
        width = max(map(len, self.rows), default=0)
        outside: dict[frozenset[int], list[int]] = {}  # held columns -> the others
        out: dict[tuple[int, int], str] = {}
        nothing: frozenset[int] = frozenset()
        for r, row in enumerate(self.rows):
            cols = held.get(r, nothing)
            if cols not in outside:
                outside[cols] = [c for c in range(width) if c not in cols]
            rest = outside[cols]
            if rest and "".join([row[c] for c in rest]).strip():
                out.update(((r, c), row[c]) for c in rest if row[c].strip())
        return out


def merged_rows(rows: list[list[str]], merges: list[Merge]) -> RowCells | None:
    """The rows with merges filled in as grid.merged_cells fills a dict (vertical merges
    repeat the value in each row, horizontal ones keep it in the first column); rows a
    merge touches are copied. None when that cannot be done within the box: rows of
    unequal length, or a merge repeating a value below the last row."""
    if len(set(map(len, rows))) > 1:
        return None
    out = list(rows)
    copied: set[int] = set()
    for r1, c1, r2, c2 in merges:
        value = out[r1][c1] if r1 < len(out) and c1 < len(out[r1]) else ""
        if value and r2 >= len(out):
            return None
        for r in range(r1, min(r2 + 1, len(out))):
            if r not in copied:
                out[r] = list(out[r])
                copied.add(r)
            row = out[r]
            for c in range(c1, min(c2 + 1, len(row))):
                row[c] = ""
            if value:
                row[c1] = value
    return RowCells(out)
