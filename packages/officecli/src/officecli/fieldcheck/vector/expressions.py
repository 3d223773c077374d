"""An expression over number columns as column operations; anything else (texts, dates,
functions other than abs, //, %, **) gives no filter: every row is then a candidate.

A row whose value is null at the root (a blank or unusual cell, a division by zero, a
value that is not finite) is a candidate: the Python engine decides whether it is a
finding or a skipped evaluation. `and`/`or` propagate nulls (no short cut), which can only
add candidates."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from officecli.fieldcheck.expr_parse import Node
from officecli.fieldcheck.vector.batch import Batch, Filter, close_enough

Vector = Callable[[Batch], Any]
_NUMBER_KINDS = ("number", "integer")
_ORDER = {"<": pc.less, "<=": pc.less_equal, ">": pc.greater, ">=": pc.greater_equal}
_ARITHMETIC = {"+": pc.add, "-": pc.subtract, "*": pc.multiply}


class _Unsupported(Exception):
    pass


def compile_filter(tree: Node, types: dict[str, str]) -> Filter:
    try:
        kind, root = _node(tree, types)
    except _Unsupported:
        return lambda b: b.everything()
    if kind != "bool":
        return lambda b: b.everything()
    return lambda b: pc.invert(pc.fill_null(root(b), False))


def _finite(values: Any) -> Any:
    return pc.if_else(pc.is_finite(values), values, None)


def _node(node: Node, types: dict[str, str]) -> tuple[str, Vector]:
    kind = node[0]
    if kind == "num":
        value = float(node[1])
        return "float", lambda b: pa.scalar(value, pa.float64())
    if kind == "name":
        name = node[1]
        if types.get(name) not in _NUMBER_KINDS:
            raise _Unsupported
        return "float", lambda b: b.values(name)
    if kind == "neg":
        inner = _float(node[1], types)
        return "float", lambda b: pc.negate(inner(b))
    if kind == "not":
        inner = _bool(node[1], types)
        return "bool", lambda b: pc.invert(inner(b))
    if kind in ("and", "or"):
        fn = pc.and_ if kind == "and" else pc.or_
        left, right = _bool(node[1], types), _bool(node[2], types)
        return "bool", lambda b: fn(left(b), right(b))
    if kind == "cmp":
        op = node[1]
        left, right = _float(node[2], types), _float(node[3], types)
        if op in _ORDER:
            order = _ORDER[op]
            return "bool", lambda b: order(left(b), right(b))
        equal = op == "=="
        return "bool", lambda b: _equal(left(b), right(b), equal)
    if kind == "bin" and node[1] in _ARITHMETIC:
        fn, left, right = _ARITHMETIC[node[1]], _float(node[2], types), _float(node[3], types)
        return "float", lambda b: _finite(fn(left(b), right(b)))
    if kind == "bin" and node[1] == "/":
        left, right = _float(node[2], types), _float(node[3], types)

        def divide(b: Batch) -> Any:
            divisor = right(b)
            safe = pc.if_else(pc.equal(divisor, 0.0), None, divisor)
            return _finite(pc.divide(left(b), safe))

        return "float", divide
    if kind == "call" and node[1] == "abs" and len(node[2]) == 1:
        inner = _float(node[2][0], types)
        return "float", lambda b: pc.abs(inner(b))
    raise _Unsupported


def _float(node: Node, types: dict[str, str]) -> Vector:
    kind, fn = _node(node, types)
    if kind != "float":
        raise _Unsupported
    return fn


def _bool(node: Node, types: dict[str, str]) -> Vector:
    kind, fn = _node(node, types)
    if kind != "bool":
        raise _Unsupported
    return fn


def _equal(a: Any, b: Any, equal: bool) -> Any:
    close = close_enough(a, b)
    return close if equal else pc.invert(close)
