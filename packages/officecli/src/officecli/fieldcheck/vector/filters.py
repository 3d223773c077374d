"""Each rule as column operations: a mask of the rows where it may fail or may not be
evaluable (its candidates). A mask may hold rows that pass (the Python engine then finds
nothing there) but never misses a row the Python engine would report or count."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import re2

from officecli.fieldcheck.checks import bound_value
from officecli.fieldcheck.chunk import CompileContext
from officecli.fieldcheck.model import RuleSpec
from officecli.fieldcheck.text_checks import scalar_text
from officecli.fieldcheck.values import CONVERTERS
from officecli.fieldcheck.vector.arrays import typed
from officecli.fieldcheck.vector.batch import Batch, Filter, close_enough
from officecli.fieldcheck.vector.expressions import compile_filter

_OPTIONS = re2.Options()
_OPTIONS.log_errors = False
_OPTIONS.never_nl = True  # no match crosses the line between two cells of the joined column


def _false_if_null(mask: pa.Array) -> pa.Array:
    return pc.fill_null(mask, False)


def _required(spec: RuleSpec, ctx: CompileContext) -> Filter:
    name = spec.params["field"]
    return lambda b: b.blank(name)


def _text(name: str, ok: Callable[[Batch], pa.Array]) -> Filter:
    """Candidates of a check on the stripped text that every blank cell passes."""
    return lambda b: pc.and_(pc.invert(b.blank(name)), pc.invert(_false_if_null(ok(b))))


def _length(spec: RuleSpec, ctx: CompileContext) -> Filter:
    name, low, high = spec.params["field"], spec.params.get("min", 0), spec.params.get("max")

    def ok(b: Batch) -> pa.Array:
        n = pc.utf8_length(b.stripped(name))
        inside = pc.greater_equal(n, low)
        return inside if high is None else pc.and_(inside, pc.less_equal(n, high))

    return _text(name, ok)


def _enum(spec: RuleSpec, ctx: CompileContext) -> Filter:
    name = spec.params["field"]
    texts = pa.array([scalar_text(v) for v in spec.params["values"]], pa.string())
    numbers = [float(v) for v in spec.params["values"] if isinstance(v, int | float)]
    numeric = ctx.types.get(name) in ("number", "integer")

    def ok(b: Batch) -> pa.Array:
        listed = pc.is_in(b.stripped(name), value_set=texts)
        if not numeric:
            return listed
        # The number the stripped text reads as, when it has a plain shape; other shapes
        # are candidates (parse_number decides).
        value = typed(b.stripped(name), lambda: b.blank(name), "number")
        in_numbers = pc.is_in(value.values, value_set=pa.array(numbers, pa.float64()))
        return pc.or_(listed, pc.and_(_false_if_null(in_numbers), pc.invert(value.unusual)))

    return _text(name, ok)


def _reference(spec: RuleSpec, ctx: CompileContext) -> Filter:
    name = spec.params["field"]
    allowed = pa.array(sorted(ctx.masters[spec.params["master"]]), pa.string())
    return _text(name, lambda b: pc.is_in(b.stripped(name), value_set=allowed))


def _pattern(spec: RuleSpec, ctx: CompileContext) -> Filter:
    name, regex = spec.params["field"], spec.params["regex"]
    if "\\C" in regex.pattern:  # \C matches any byte, even the line between two cells
        return lambda b: pc.invert(b.blank(name))
    # From a row's start: match rows while each is blank or wholly matched; the run stops
    # at the first other row. One call per such row, not per cell.
    run = re2.compile(f"(?m)(?:(?:{regex.pattern})?$\\C)*", _OPTIONS)

    def candidates(b: Batch) -> pa.Array:
        texts = b.stripped(name)
        newline = pc.match_substring(texts, "\n")
        joined = pc.binary_join_element_wise(pc.if_else(newline, "", texts), "", "\n")
        data = bytes(
            memoryview(joined.buffers()[2])[: pc.sum(pc.binary_length(joined)).as_py() or 0]
        )
        failed, pos, row = [], 0, 0
        while pos < len(data):
            end = run.match(data, pos).end()
            row += data.count(b"\n", pos, end)
            if end >= len(data):
                break
            failed.append(row)
            pos, row = data.index(b"\n", end) + 1, row + 1
        mask = pa.array(_flags(b.size, failed), pa.bool_())
        return pc.or_(mask, newline)

    return candidates


def _flags(size: int, on: list[int]) -> list[bool]:
    flags = [False] * size
    for i in on:
        flags[i] = True
    return flags


def _range(spec: RuleSpec, ctx: CompileContext) -> Filter:
    name = spec.params["field"]
    low, high = bound_value(spec, ctx, "min", name), bound_value(spec, ctx, "max", name)

    def candidates(b: Batch) -> pa.Array:
        values, outside = b.values(name), None
        if low is not None:
            outside = pc.less(values, pa.scalar(low, values.type))
        if high is not None:
            above = pc.greater(values, pa.scalar(high, values.type))
            outside = above if outside is None else pc.or_(outside, above)
        return pc.or_(_false_if_null(outside), b.unusual(name))

    return candidates


_ORDER_FUNCTIONS = {"<": pc.less, "<=": pc.less_equal, ">": pc.greater, ">=": pc.greater_equal}


# The Python type of a column's values by its kind; compare needs the same on both sides.
_PY_TYPE = {"number": "float", "integer": "float", "date": "date", "string": "str"}


def _compare(spec: RuleSpec, ctx: CompileContext) -> Filter:
    left, op, right = spec.params["left"], spec.params["op"], spec.params.get("right")
    kinds = [ctx.types.get(left, "string")]
    kinds += [ctx.types.get(right, "string")] if right is not None else []
    sorts = {_PY_TYPE.get(k) for k in kinds}
    if len(sorts) != 1 or None in sorts:  # mixed or auto: values of other types may meet
        return lambda b: b.everything()
    kind = kinds[0]
    constant: Any = None
    if right is None:
        text = scalar_text(spec.params["value"])
        constant = text if kind == "string" else CONVERTERS[kind](text)

    def candidates(b: Batch) -> pa.Array:
        a = b.values(left)
        other = b.values(right) if right is not None else pa.scalar(constant, a.type)
        if op in _ORDER_FUNCTIONS:
            fails = pc.invert(_ORDER_FUNCTIONS[op](a, other))
        elif kind in ("date", "string"):
            fails = pc.not_equal(a, other) if op == "==" else pc.equal(a, other)
        else:
            close = close_enough(a, other)
            fails = pc.invert(close) if op == "==" else close
        names = [left] + ([right] if right is not None else [])
        return pc.or_(_false_if_null(fails), b.unusual(*names))

    return candidates


def _sum_equals(spec: RuleSpec, ctx: CompileContext) -> Filter:
    total, parts = spec.params["total"], spec.params["parts"]
    tolerance = float(spec.params.get("tolerance", 0))

    def candidates(b: Batch) -> pa.Array:
        sums = pc.fill_null(b.values(parts[0]), 0.0)
        for part in parts[1:]:
            sums = pc.add(sums, pc.fill_null(b.values(part), 0.0))
        allowed = pc.add(tolerance, pc.multiply(1e-9, pc.add(1.0, pc.abs(sums))))
        fails = pc.greater(pc.abs(pc.subtract(b.values(total), sums)), allowed)
        return pc.or_(_false_if_null(fails), b.unusual(total, *parts))

    return candidates


def _expression(spec: RuleSpec, ctx: CompileContext) -> Filter:
    return compile_filter(spec.params["expr"][1], ctx.types)


FILTERS: dict[str, Callable[[RuleSpec, CompileContext], Filter]] = {
    "required": _required,
    "length": _length,
    "pattern": _pattern,
    "enum": _enum,
    "reference": _reference,
    "range": _range,
    "compare": _compare,
    "sum_equals": _sum_equals,
    "expression": _expression,
}
