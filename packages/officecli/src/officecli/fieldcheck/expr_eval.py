"""Compile a parsed expression into closures evaluated over a chunk of rows at once.

Each node becomes a function from the chunk's typed columns to one value per row, so an
expression costs a few list comprehensions per chunk instead of many calls per row.
Values are float, str, bool, date or None (blank). Arithmetic takes numbers only (so no
string repetition bombs), `**` refuses exponents above MAX_EXPONENT, and a row where any
step fails (blank or wrongly typed values, division by zero) evaluates to ERROR, which
the engine counts as a skipped evaluation rather than a finding.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from typing import Any

from officecli.fieldcheck.expr_parse import MAX_EXPONENT, Node
from officecli.fieldcheck.patterns import Pattern, PatternError, compile_pattern
from officecli.fieldcheck.values import Value, parse_date, parse_number

Columns = Mapping[str, Sequence[Value]]
Vector = list[Any]
Compiled = Callable[[Columns, int], Sequence[Any]]


class _Error:
    """The value of an expression on a row where it cannot be evaluated."""

    def __repr__(self) -> str:
        return "ERROR"


ERROR: Any = _Error()


class EvalError(Exception):
    """The expression cannot be evaluated on this row (blank or wrongly typed values)."""


def _number(value: Value, what: str) -> float:
    if type(value) is float:
        return value
    raise EvalError(f"{what} needs numbers, got {value!r}")


def _power(a: float, b: float) -> float:
    if abs(b) > MAX_EXPONENT:
        raise EvalError(f"exponent larger than {MAX_EXPONENT} refused")
    return float(a**b)


_ARITHMETIC: dict[str, Callable[[float, float], float]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: a / b,
    "//": lambda a, b: float(a // b),
    "%": lambda a, b: a % b,
    "**": _power,
}


def _equal(a: Value, b: Value) -> bool:
    if type(a) is float and type(b) is float:
        return abs(a - b) <= 1e-9 * (1.0 + abs(a) + abs(b))  # 0.1 + 0.2 == 0.3
    return a == b


def _ordered(op: str) -> Callable[[Value, Value], bool]:

    fn = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}[op]

    def compare(a: Value, b: Value) -> bool:
        if a is None or b is None or type(a) is not type(b) or isinstance(a, bool):
            raise EvalError(f"cannot order {a!r} and {b!r}")
        return bool(fn(a, b))

    return compare


COMPARATORS: dict[str, Callable[[Value, Value], bool]] = {
    "==": _equal,
    "!=": lambda a, b: not _equal(a, b),
    **{op: _ordered(op) for op in ("<", "<=", ">", ">=")},
}


def _as_date(value: Value) -> date:
    if isinstance(value, date):
        return value
    parsed = parse_date(value) if isinstance(value, str) else None
    if parsed is None:
        raise EvalError(f"not a date: {value!r}")
    return parsed


def _as_number(value: Value) -> float | None:
    if type(value) is float:
        return value
    return parse_number(value) if isinstance(value, str) else None


def _text(value: Value) -> str:
    if not isinstance(value, str):
        raise EvalError(f"needs text, got {value!r}")
    return value


def _regex(pattern: str) -> Pattern:
    try:
        return compile_pattern(pattern)
    except PatternError as exc:
        raise EvalError(f"unsupported regular expression: {exc}") from None


def _extreme(pick: Callable[..., Any]) -> Callable[..., Value]:
    def fn(*args: Value) -> Value:
        present = [a for a in args if a is not None]
        if not present or len({type(a) for a in present}) != 1:
            raise EvalError("min/max need values of one type")
        return pick(present)  # type: ignore[no-any-return]

    return fn


FUNCTIONS: dict[str, Callable[..., Value]] = {
    "abs": lambda x: abs(_number(x, "abs")),
    "round": lambda x, n=0.0: float(round(_number(x, "round"), int(_number(n, "round")))),
    "min": _extreme(min),
    "max": _extreme(max),
    "len": lambda s: float(len(s if isinstance(s, str) else "" if s is None else str(s))),
    "blank": lambda x: x is None or (isinstance(x, str) and not x.strip()),
    "number": _as_number,
    "date": lambda x: None if x is None else _as_date(x),
    "days": lambda a, b: float((_as_date(b) - _as_date(a)).days),
    "year": lambda d: float(_as_date(d).year),
    "month": lambda d: float(_as_date(d).month),
    "day": lambda d: float(_as_date(d).day),
    "contains": lambda s, part: _text(part) in _text(s),
    "matches": lambda s, rx: _regex(_text(rx)).fullmatch(_text(s)) is not None,
}


def _safe(fn: Callable[..., Any]) -> Callable[..., Any]:
    """fn applied to one row's arguments; ERROR when an argument is ERROR or fn fails."""

    def apply(*args: Any) -> Any:
        if ERROR in args:
            return ERROR
        try:
            return fn(*args)
        except (EvalError, TypeError, ValueError, OverflowError, ZeroDivisionError):
            return ERROR

    return apply


def _numeric(fn: Callable[[float, float], float]) -> Callable[[Any, Any], Any]:
    def apply(a: Any, b: Any) -> Any:
        if type(a) is not float or type(b) is not float:
            return ERROR
        try:
            return fn(a, b)
        except (EvalError, ZeroDivisionError, OverflowError):
            return ERROR

    return apply


def _equal_or_error(a: Any, b: Any) -> Any:
    return ERROR if a is ERROR or b is ERROR else _equal(a, b)


def _pairwise(fn: Callable[[Any, Any], Any], left: Compiled, right: Compiled) -> Compiled:
    return lambda cols, n: list(map(fn, left(cols, n), right(cols, n)))


# Operators that cannot raise on two floats (inf is a float, not an exception).
_INLINE: dict[str, Callable[[float, float], float]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
}


def compile_node(node: Node) -> Compiled:
    """Turn a tree into a function of (typed columns, row count) -> values, one per row."""
    kind = node[0]
    if kind in ("num", "str", "const"):
        constant = node[1]
        return lambda cols, n: [constant] * n
    if kind == "name":
        name = node[1]
        return lambda cols, n: cols[name]
    if kind == "neg":
        inner = compile_node(node[1])
        return lambda cols, n: [-x if type(x) is float else ERROR for x in inner(cols, n)]
    if kind == "not":
        inner = compile_node(node[1])
        return lambda cols, n: [ERROR if x is ERROR else not x for x in inner(cols, n)]
    if kind in ("and", "or"):
        want = kind == "or"  # the value of the left side that decides alone
        left, right = compile_node(node[1]), compile_node(node[2])
        return lambda cols, n: [
            ERROR if a is ERROR else want if bool(a) is want else ERROR if b is ERROR else bool(b)
            for a, b in zip(left(cols, n), right(cols, n), strict=True)
        ]
    if kind == "cmp":
        op = node[1]
        left, right = compile_node(node[2]), compile_node(node[3])
        if op == "==":  # the common case, with numbers compared inline
            return lambda cols, n: [
                abs(a - b) <= 1e-9 * (1.0 + abs(a) + abs(b))
                if type(a) is float and type(b) is float
                else _equal_or_error(a, b)
                for a, b in zip(left(cols, n), right(cols, n), strict=True)
            ]
        return _pairwise(_safe(COMPARATORS[op]), left, right)
    if kind == "bin" and node[1] in _INLINE:
        fn, left, right = _INLINE[node[1]], compile_node(node[2]), compile_node(node[3])
        return lambda cols, n: [
            fn(a, b) if type(a) is float and type(b) is float else ERROR
            for a, b in zip(left(cols, n), right(cols, n), strict=True)
        ]
    if kind == "bin":
        return _pairwise(
            _numeric(_ARITHMETIC[node[1]]), compile_node(node[2]), compile_node(node[3])
        )
    if kind == "call":
        fn = _safe(FUNCTIONS[node[1]])
        args = [compile_node(a) for a in node[2]]
        return lambda cols, n: list(map(fn, *(a(cols, n) for a in args)))
    raise ValueError(f"unknown node {kind!r}")
