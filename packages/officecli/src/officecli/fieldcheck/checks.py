"""Compile each rule once into a chunk check (see `chunk`); this module holds the checks on
typed values (range, compare, sum_equals, expression), unique, and the table of compilers.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

from agentcli.report import Finding
from officecli.fieldcheck.chunk import Check, Chunk, CompileContext, Hits, rule_error
from officecli.fieldcheck.expr_eval import COMPARATORS, ERROR, EvalError, compile_node
from officecli.fieldcheck.expr_parse import names_in
from officecli.fieldcheck.findings import finding_maker
from officecli.fieldcheck.model import RuleSpec
from officecli.fieldcheck.text_checks import (
    enum_check,
    length_check,
    pattern_check,
    reference_check,
    required_check,
    scalar_text,
)
from officecli.fieldcheck.values import CONVERTERS, Value, format_value


def not_close(actual: float, expected: float, tolerance: float) -> bool:
    """Differ by more than the tolerance, ignoring float noise (0.1 + 0.2 vs 0.3)."""
    return abs(actual - expected) > tolerance + 1e-9 * (1.0 + abs(expected))


def bound_value(spec: RuleSpec, ctx: CompileContext, name: str, field_name: str) -> Any:
    raw = spec.params.get(name)
    if raw is None:
        return None
    kind = ctx.types.get(field_name, "number")
    if kind in ("number", "integer") and isinstance(raw, int | float):
        return float(raw)
    if kind == "date":
        parsed = CONVERTERS["date"](str(raw))
        if parsed is not None:
            return parsed
    raise rule_error(spec, f"`{name}` {raw!r} does not suit the {kind} column {field_name!r}")


def _range(spec: RuleSpec, ctx: CompileContext) -> Check:
    name = spec.params["field"]
    low, high = bound_value(spec, ctx, "min", name), bound_value(spec, ctx, "max", name)
    if low is not None and high is not None:
        expected = f"between {format_value(low)} and {format_value(high)}"
    else:
        expected = f">= {format_value(low)}" if low is not None else f"<= {format_value(high)}"
    make = finding_maker(spec, "{field} must be " + expected, f"make {name} {expected}")

    def check(chunk: Chunk, rows: Sequence[int]) -> Hits:
        vals: list[Any] = chunk.vals[name]
        if low is None:
            hits = [i for i in rows if (v := vals[i]) is not None and v > high]
        elif high is None:
            hits = [i for i in rows if (v := vals[i]) is not None and v < low]
        else:
            hits = [i for i in rows if (v := vals[i]) is not None and not low <= v <= high]
        col = chunk.raw[name]
        return [(i, make(chunk.place(i), chunk.row(i), name, expected, col[i])) for i in hits]

    return check


def unique_key_kinds(spec: RuleSpec, ctx: CompileContext) -> list[bool]:
    """Per column of a unique rule: compared as its typed value (else as stripped text)."""
    return [ctx.types.get(f, "string") not in ("string", "auto") for f in spec.params["fields"]]


UniqueHit = Callable[[Chunk, int, int], Finding]


def unique_hit(spec: RuleSpec) -> UniqueHit:
    """The finding of row i repeating the key first seen on line `first`."""
    names: list[str] = spec.params["fields"]
    label = ", ".join(names)
    make = finding_maker(spec, "{field} repeats an earlier row", f"make {label} unique")

    def hit(chunk: Chunk, i: int, first: int) -> Finding:
        actual = " / ".join(chunk.raw[f][i] for f in names)
        expected = f"unique (first seen on line {first})"
        return make(chunk.place(i), chunk.row(i), label, expected, actual)

    return hit


def _unique(spec: RuleSpec, ctx: CompileContext) -> Check:
    names: list[str] = spec.params["fields"]
    typed = unique_key_kinds(spec, ctx)
    hit = unique_hit(spec)
    first_row: dict[Any, int] = {}  # grows with distinct values: the documented exception

    def keys(chunk: Chunk) -> list[Any]:
        cols = [
            chunk.vals[f] if t else [s.strip() or None for s in chunk.raw[f]]
            for f, t in zip(names, typed, strict=True)
        ]
        if len(cols) == 1:
            return cols[0]
        return [None if all(v is None for v in k) else k for k in zip(*cols, strict=True)]

    def check(chunk: Chunk, rows: Sequence[int]) -> Hits:
        col, numbers, hits = keys(chunk), chunk.numbers, []
        seen = first_row.setdefault
        for i in rows:
            key = col[i]
            if key is not None and (first := seen(key, numbers[i])) != numbers[i]:
                hits.append((i, hit(chunk, i, first)))
        return hits

    return check


_ORDERED: dict[str, Callable[[Any, Any], bool]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
_ORDERABLE = ("number", "integer", "date")


def _compare(spec: RuleSpec, ctx: CompileContext) -> Check:
    left, op = spec.params["left"], spec.params["op"]
    right = spec.params.get("right")
    compare = COMPARATORS[op]
    constant: Value = None
    if right is None:
        raw = spec.params["value"]
        kind = ctx.types.get(left, "string")
        constant = CONVERTERS[kind](scalar_text(raw)) if kind != "string" else scalar_text(raw)
        if constant is None:
            raise rule_error(spec, f"`value` {raw!r} does not suit the {kind} column {left!r}")
    shown = right or format_value(constant)
    make = finding_maker(spec, f"{{field}} must be {op} {shown}", f"check {left} against {shown}")

    sides = [ctx.types.get(left), ctx.types.get(right) if right is not None else None]
    # Both sides numbers (or both dates) cannot mismatch: compare with the C operator.
    ordered = op in _ORDERED and sides[0] in _ORDERABLE and sides[1] in (sides[0], None)

    def check(chunk: Chunk, rows: Sequence[int]) -> Hits:
        a_col: list[Any] = chunk.vals[left]
        b_col: list[Any] | None = chunk.vals[right] if right is not None else None
        if ordered:
            fn, bs = _ORDERED[op], b_col or [constant] * len(a_col)
            failing = [
                i
                for i in rows
                if (a := a_col[i]) is not None and (b := bs[i]) is not None and not fn(a, b)
            ]
        else:
            failing = list(rows)
        hits = []
        for i in failing:
            a = a_col[i]
            b = b_col[i] if b_col is not None else constant
            if a is None or b is None:
                continue
            try:
                if compare(a, b):
                    continue
            except EvalError:
                ctx.skipped[0] += 1
                continue
            expected = format_value(b) if op == "==" else f"{op} {format_value(b)}"
            hits.append((i, make(chunk.place(i), chunk.row(i), left, expected, chunk.raw[left][i])))
        return hits

    return check


def _sum_equals(spec: RuleSpec, ctx: CompileContext) -> Check:
    total, parts = spec.params["total"], spec.params["parts"]
    tolerance = float(spec.params.get("tolerance", 0))
    make = finding_maker(
        spec,
        f"{{field}} must equal {' + '.join(parts)}",
        f"check {total} or its parts ({', '.join(parts)})",
    )

    def check(chunk: Chunk, rows: Sequence[int]) -> Hits:
        totals: list[Any] = chunk.vals[total]
        part_cols = [chunk.vals[p] for p in parts]
        # Blank parts count as 0; a blank total is for `required` to report.
        if any(None in c for c in part_cols):
            part_cols = [[0.0 if v is None else v for v in c] for c in part_cols]
        sums = list(map(sum, zip(*part_cols, strict=True)))
        # not_close, inlined: this runs once per row.
        hits = [
            i
            for i in rows
            if (t := totals[i]) is not None
            and abs(t - (s := sums[i])) > tolerance + 1e-9 * (1.0 + abs(s))
        ]
        col = chunk.raw[total]
        return [
            (i, make(chunk.place(i), chunk.row(i), total, format_value(float(sums[i])), col[i]))
            for i in hits
        ]

    return check


def _expression(spec: RuleSpec, ctx: CompileContext) -> Check:
    text, tree = spec.params["expr"]
    is_cmp = tree[0] == "cmp"
    left_name = tree[2][1] if is_cmp and tree[2][0] == "name" else None
    used = names_in(tree)
    shown_field = spec.params.get("field") or left_name or (used[0] if used else "")
    make = finding_maker(spec, f"expected {text}", "check the values the expression uses")
    op = tree[1] if is_cmp else ""
    whole = compile_node(tree)
    # For a comparison, the sides are evaluated again only on failing rows, to report them.
    sides = (compile_node(tree[2]), compile_node(tree[3])) if is_cmp else None

    def check(chunk: Chunk, rows: Sequence[int]) -> Hits:
        n = len(chunk.numbers)
        results = whole(chunk.vals, n)
        failed = [i for i in rows if results[i] is ERROR or not results[i]]
        errors = [i for i in failed if results[i] is ERROR]
        ctx.skipped[0] += len(errors)
        failed = [i for i in failed if results[i] is not ERROR]
        if not failed:
            return []
        if sides is None:
            return [
                (i, make(chunk.place(i), chunk.row(i), shown_field, "true", "false"))
                for i in failed
            ]
        lefts, rights = sides[0](chunk.vals, n), sides[1](chunk.vals, n)
        hits = []
        for i in failed:
            expected = format_value(rights[i])
            expected = expected if op == "==" else f"{op} {expected}"
            actual = chunk.raw[left_name][i] if left_name is not None else format_value(lefts[i])
            hits.append((i, make(chunk.place(i), chunk.row(i), shown_field, expected, actual)))
        return hits

    return check


COMPILERS: dict[str, Callable[[RuleSpec, CompileContext], Check]] = {
    "required": required_check,
    "range": _range,
    "length": length_check,
    "pattern": pattern_check,
    "enum": enum_check,
    "unique": _unique,
    "compare": _compare,
    "sum_equals": _sum_equals,
    "reference": reference_check,
    "expression": _expression,
}
