"""Checking one chunk of rows with the compiled rules, and collecting the findings in line
order: the part the Python engine and the vectorised one share."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from heapq import merge
from itertools import compress
from math import isfinite
from typing import Any

from agentcli.report import Finding
from officecli.fieldcheck.chunk import Chunk, CompiledRule
from officecli.fieldcheck.findings import FindingMaker, Place, finding_maker
from officecli.fieldcheck.model import RuleSpec
from officecli.fieldcheck.values import BOOLEAN_WORDS, CONVERTERS, is_blank
from officecli.readers.tabular import Table

# A finding with where it sorts: (line, order, finding); order -1 is a blank line, then
# the column conversions, then the rules in file order.
Hit = tuple[int, int, Finding]
Converters = list[tuple[str, str, FindingMaker]]


class Collector:
    """Keeps up to `limit` findings in line order and counts all of them by severity."""

    def __init__(self, limit: int | None) -> None:
        self.hits: list[Hit] = []
        self.totals = {"error": 0, "warning": 0, "info": 0}
        self.limit = limit

    def add(self, hit: Hit) -> None:
        self.totals[hit[2].severity] += 1
        if self.limit is None or len(self.hits) < self.limit:
            self.hits.append(hit)

    def extend(self, hits: list[Hit]) -> None:
        for hit in hits:
            self.add(hit)

    def merge(self, hits: list[Hit]) -> None:
        """Findings found after the pass (sorted), put in line order among those kept."""
        for hit in hits:
            self.totals[hit[2].severity] += 1
        merged = merge(self.hits, hits, key=lambda hit: (hit[0], hit[1]))
        self.hits = list(merged)[: self.limit]

    @property
    def findings(self) -> list[Finding]:
        return [finding for _, _, finding in self.hits]


BLANK_ROW = RuleSpec(
    "row.blank", "blank", "info", "", "", "a blank line is not a record", None, {}, 0
)
_blank_finding = finding_maker(
    BLANK_ROW, "{location} is blank", "remove the blank line, or fill in the record it stands for"
)


def blank_hits(lines: list[int]) -> list[Hit]:
    """The `row.blank` findings of these blank lines."""
    return [(n, -1, _blank_finding(Place(n), {}, "", "a record", "")) for n in lines]


def passed_blanks(table: Table) -> list[int]:
    """The blank lines the reader has passed since last asked."""
    lines, table.blank_lines[:] = list(table.blank_lines), []
    return lines


# Clean columns convert with one C-level map; a chunk with any other cell (blank,
# ¥1,000, 2026/4/1, ...) converts cell by cell through the lenient parser instead.
_FAST: dict[str, Callable[[str], Any]] = {
    "number": float,
    "integer": float,
    "date": date.fromisoformat,
    "boolean": BOOLEAN_WORDS.__getitem__,
}


def _convert(chunk: Chunk, name: str, kind: str) -> list[int]:
    """Fill chunk.vals[name]; return the indexes of non-blank cells of the wrong type."""
    col = chunk.raw[name]
    fast = _FAST.get(kind)
    if fast is not None:
        try:
            vals: list[Any] = list(map(fast, col))
            if kind in ("date", "boolean") or (
                all(map(isfinite, vals)) and (kind == "number" or all(map(float.is_integer, vals)))
            ):
                chunk.vals[name] = vals
                return []
        except (ValueError, KeyError):
            pass
    if kind == "string":
        chunk.vals[name] = [None if is_blank(t) else t for t in col]
        return []
    convert = CONVERTERS[kind]
    vals = [None if not t or t.isspace() else convert(t) for t in col]
    chunk.vals[name] = vals
    return [i for i, v in enumerate(vals) if v is None and not is_blank(col[i])]


def check_chunk(
    chunk: Chunk, converters: Converters, rules: list[CompiledRule], blanks: list[int]
) -> list[Hit]:
    """The chunk's findings (and of these blank lines) in line order."""
    hits: list[tuple[int, int, Finding]] = []
    bad: dict[str, set[int]] = {}
    for order, (name, kind, make) in enumerate(converters):
        wrong = _convert(chunk, name, kind)
        if wrong:
            bad[name] = set(wrong)
            col = chunk.raw[name]
            hits += [
                (i, order, make(chunk.place(i), chunk.row(i), name, kind, col[i])) for i in wrong
            ]
    everything = range(len(chunk.numbers))
    for order, rule in enumerate(rules, start=len(converters)):
        rows: Sequence[int] = everything
        if rule.when is not None:
            rows = list(compress(everything, rule.when(chunk.raw)))
        skip = [bad[f] for f in rule.needs if f in bad]
        if skip:
            skipped = set().union(*skip)
            rows = [i for i in rows if i not in skipped]
        hits += [(i, order, finding) for i, finding in rule.check(chunk, rows)]
    numbers = chunk.numbers
    by_line = [(numbers[i], order, finding) for i, order, finding in hits] + blank_hits(blanks)
    by_line.sort(key=lambda hit: (hit[0], hit[1]))
    return by_line
