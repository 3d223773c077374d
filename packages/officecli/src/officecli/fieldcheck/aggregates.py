"""`aggregate_equals`: sum/count/min/max per group of this file against another dataset.

Memory grows with the number of groups (one accumulator each), not with the rows; the
other dataset is read whole, as it holds one expected value per group.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from agentcli.report import Finding
from officecli.fieldcheck.checks import not_close
from officecli.fieldcheck.chunk import Check, Chunk, Hits, Row
from officecli.fieldcheck.findings import Place, finding_maker
from officecli.fieldcheck.model import RuleSpec
from officecli.fieldcheck.values import format_value, parse_number

Loaded = tuple[str, list[str], list[tuple[int, Row]]]  # (file name, columns, rows)
_FOLD: dict[str, Callable[[Any, Any], Any]] = {
    "sum": lambda acc, v: v if acc is None else acc + v,
    "min": lambda acc, v: v if acc is None or v < acc else acc,
    "max": lambda acc, v: v if acc is None or v > acc else acc,
}


def compile_aggregate(spec: RuleSpec, other: Loaded) -> tuple[Check, Callable[[], list[Finding]]]:
    """The per-row feed (always None) and the finish step producing the findings."""
    p = spec.params
    group_by: list[str] = p["group_by"]
    keys: list[str] = p.get("key") or group_by
    function, value_field, target = p["function"], p.get("field"), p["target"]
    tolerance = float(p.get("tolerance", 0))
    file_name, _, other_rows = other
    what = f"{function}({value_field})" if value_field else "count"
    make = finding_maker(
        spec,
        f"{what} for {{group}} does not match {file_name}",
        f"check the rows of {{group}} or the value in {file_name}",
    )
    acc: dict[tuple[str, ...], Any] = {}
    first_row: dict[tuple[str, ...], Place] = {}
    fold = _FOLD.get(function)

    def feed(chunk: Chunk, rows: Sequence[int]) -> Hits:
        group_cols = [chunk.raw[f] for f in group_by]
        values = chunk.vals[value_field] if value_field is not None else None
        for i in rows:
            group = tuple(c[i].strip() for c in group_cols)
            if group not in first_row:
                first_row[group] = chunk.place(i)
                acc[group] = 0.0 if fold is None else None
            if fold is None:
                acc[group] += 1.0
            elif values is not None and values[i] is not None:
                acc[group] = fold(acc[group], values[i])
        return []

    def describe(group: tuple[str, ...]) -> str:
        return ", ".join(f"{k}={v}" for k, v in zip(group_by, group, strict=True))

    def finish() -> list[Finding]:
        out: list[Finding] = []
        seen: set[tuple[str, ...]] = set()
        for n, row in other_rows:
            group = tuple(row[k].strip() for k in keys)
            seen.add(group)
            expected_text = row[target]
            actual = acc.get(group, 0.0 if function in ("sum", "count") else None)
            expected = parse_number(expected_text) if expected_text.strip() else None
            if (
                expected is not None
                and actual is not None
                and not not_close(actual, expected, tolerance)
            ):
                continue
            place = {"group": describe(group)}
            there = Place(n, file=file_name)
            out.append(make(there, place, target, expected_text, format_value(actual)))
        for group, first in first_row.items():
            if group not in seen:
                place = {"group": describe(group)}
                note = f"a row in {file_name}"
                out.append(make(first, place, what, note, format_value(acc[group])))
        return out

    return feed, finish
