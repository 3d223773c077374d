"""Compile a rule's `when` into a mask function: cell texts by column -> one bool per row."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from officecli.fieldcheck.values import is_blank, parse_boolean, parse_date, parse_number

Columns = Mapping[str, Sequence[str]]
Mask = Callable[[Columns], list[bool]]
_ORDER: dict[str, Callable[[Any, Any], bool]] = {
    "gt": lambda a, b: a > b,
    "gte": lambda a, b: a >= b,
    "lt": lambda a, b: a < b,
    "lte": lambda a, b: a <= b,
}


def condition_fields(cond: Any) -> list[str]:
    """Every column a condition reads."""
    if isinstance(cond, list):
        return [f for c in cond for f in condition_fields(c)]
    out = [cond["field"]] if "field" in cond else []
    for group in ("all", "any"):
        out += condition_fields(cond.get(group, []))
    if "not" in cond:
        out += condition_fields(cond["not"])
    return out


def _matcher(expected: Any) -> Callable[[str], bool]:
    """Equality of a cell text with a YAML value: numbers and booleans compare as such."""
    if isinstance(expected, bool):
        return lambda raw: parse_boolean(raw) is expected
    if isinstance(expected, int | float):
        target = float(expected)
        return lambda raw: parse_number(raw) == target
    text = str(expected)
    return lambda raw: raw.strip() == text


def _ordered(op: str, bound: Any) -> Callable[[str], bool]:
    compare = _ORDER[op]
    if isinstance(bound, int | float):
        number = float(bound)

        def by_number(raw: str) -> bool:
            value = parse_number(raw) if not is_blank(raw) else None
            return value is not None and compare(value, number)

        return by_number
    day = parse_date(str(bound))
    if day is not None:

        def by_date(raw: str) -> bool:
            value = parse_date(raw) if not is_blank(raw) else None
            return value is not None and compare(value, day)

        return by_date
    text = str(bound)
    return lambda raw: not is_blank(raw) and compare(raw.strip(), text)


def _field_mask(field: str, op: str, arg: Any) -> Mask:
    if op == "present":
        return lambda cols: [(not is_blank(raw)) is arg for raw in cols[field]]
    if op == "equals":
        test = _matcher(arg)
    elif op == "in":
        tests = [_matcher(v) for v in arg]
        test = lambda raw: any(t(raw) for t in tests)  # noqa: E731
    else:
        test = _ordered(op, arg)
    return lambda cols: [test(raw) for raw in cols[field]]


def _all(masks: list[Mask]) -> Mask:
    if len(masks) == 1:
        return masks[0]
    return lambda cols: [all(bits) for bits in zip(*(m(cols) for m in masks), strict=True)]


def compile_condition(cond: Any) -> Mask:
    """A list or mapping of conditions; all parts of a mapping must hold."""
    if isinstance(cond, list):
        return _all([compile_condition(c) for c in cond])
    parts: list[Mask] = []
    for op, arg in cond.items():
        if op == "all":
            parts.append(compile_condition(arg))
        elif op == "any":
            options = [compile_condition(c) for c in arg]
            parts.append(
                lambda cols, o=options: [  # type: ignore[misc]
                    any(bits) for bits in zip(*(m(cols) for m in o), strict=True)
                ]
            )
        elif op == "not":
            inner = compile_condition(arg)
            parts.append(lambda cols, m=inner: [not b for b in m(cols)])  # type: ignore[misc]
        elif op != "field":
            parts.append(_field_mask(cond["field"], op, arg))
    return _all(parts)
