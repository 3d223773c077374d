"""Compile each row rule once into a closure `check(row_no, row, values) -> Finding | None`.

`row` holds the cell texts, `values` the typed values of typed fields (None when blank).
Rules other than `required` ignore blank cells. Text rules (length, pattern, enum,
reference, unique) look at the cell with surrounding spaces removed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agentcli.report import Finding
from officecli.fieldcheck.conditions import Predicate
from officecli.fieldcheck.errors import RulesFileError
from officecli.fieldcheck.expr_eval import COMPARATORS, EvalError, compile_node, evaluate
from officecli.fieldcheck.findings import finding_maker
from officecli.fieldcheck.model import RuleSpec
from officecli.fieldcheck.values import CONVERTERS, Value, format_value, is_blank

Row = dict[str, str]
Env = dict[str, Value]
Check = Callable[[int, Row, Env], Finding | None]


@dataclass
class CompileContext:
    """What compiling needs besides the rule: field types, masters, a skip counter."""

    types: dict[str, str]
    masters: dict[str, frozenset[str]] = field(default_factory=dict)
    skipped: list[int] = field(default_factory=lambda: [0])


def rule_error(spec: RuleSpec, message: str) -> RulesFileError:
    return RulesFileError(f"rule {spec.id} (line {spec.line}): {message}", data={"line": spec.line})


def _bound(spec: RuleSpec, ctx: CompileContext, name: str, field_name: str) -> Any:
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
    low, high = _bound(spec, ctx, "min", name), _bound(spec, ctx, "max", name)
    if low is not None and high is not None:
        expected = f"between {format_value(low)} and {format_value(high)}"
    else:
        expected = f">= {format_value(low)}" if low is not None else f"<= {format_value(high)}"
    make = finding_maker(spec, "{field} must be " + expected, f"make {name} {expected}")

    def check(n: int, row: Row, env: Env) -> Finding | None:
        value: Any = env[name]
        if value is None or ((low is None or value >= low) and (high is None or value <= high)):
            return None
        return make(n, row, name, expected, row[name])

    return check


def _length(spec: RuleSpec, ctx: CompileContext) -> Check:
    name = spec.params["field"]
    low, high = spec.params.get("min", 0), spec.params.get("max")
    expected = f"{low} to {high} characters" if high is not None else f"at least {low} characters"
    make = finding_maker(spec, "{field} must have " + expected, f"shorten or complete {name}")

    def check(n: int, row: Row, env: Env) -> Finding | None:
        text = row[name].strip()
        if not text or (low <= len(text) and (high is None or len(text) <= high)):
            return None
        return make(n, row, name, expected, row[name])

    return check


def _pattern(spec: RuleSpec, ctx: CompileContext) -> Check:
    name, regex = spec.params["field"], spec.params["regex"]
    expected = f"matches {regex.pattern}"
    make = finding_maker(
        spec, "{field} has an unexpected format", f"write {name} as {regex.pattern}"
    )

    def check(n: int, row: Row, env: Env) -> Finding | None:
        text = row[name].strip()
        if not text or regex.fullmatch(text):
            return None
        return make(n, row, name, expected, row[name])

    return check


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return format_value(float(value)) if isinstance(value, int | float) else str(value)


def _enum(spec: RuleSpec, ctx: CompileContext) -> Check:
    name = spec.params["field"]
    allowed = [_text(v) for v in spec.params["values"]]
    numeric = ctx.types.get(name) in ("number", "integer")
    numbers = {float(v) for v in spec.params["values"] if isinstance(v, int | float)}
    texts = frozenset(allowed)
    expected = "one of: " + ", ".join(allowed)
    make = finding_maker(spec, "{field} is not an allowed value", f"use {expected}")

    def check(n: int, row: Row, env: Env) -> Finding | None:
        text = row[name].strip()
        if not text or text in texts or (numeric and env[name] in numbers):
            return None
        return make(n, row, name, expected, row[name])

    return check


def _reference(spec: RuleSpec, ctx: CompileContext) -> Check:
    name, master = spec.params["field"], spec.params["master"]
    allowed = ctx.masters[master]
    expected = f"a value of master {master}"
    make = finding_maker(
        spec, "{field} is not in master " + master, f"use a value listed in {master}"
    )

    def check(n: int, row: Row, env: Env) -> Finding | None:
        text = row[name].strip()
        if not text or text in allowed:
            return None
        return make(n, row, name, expected, row[name])

    return check


def _required(spec: RuleSpec, ctx: CompileContext) -> Check:
    name = spec.params["field"]
    make = finding_maker(spec, "{field} is required", f"fill in {name}")

    def check(n: int, row: Row, env: Env) -> Finding | None:
        return make(n, row, name, "a value", "") if is_blank(row[name]) else None

    return check


def _unique(spec: RuleSpec, ctx: CompileContext) -> Check:
    names: list[str] = spec.params["fields"]
    typed = [ctx.types.get(f, "string") != "string" for f in names]
    label = ", ".join(names)
    make = finding_maker(spec, "{field} repeats an earlier row", f"make {label} unique")
    first_row: dict[Any, int] = {}  # grows with distinct values: the documented exception

    def key_of(row: Row, env: Env) -> Any:
        parts = tuple(env[f] if t else row[f].strip() for f, t in zip(names, typed, strict=True))
        return parts[0] if len(parts) == 1 else parts

    def check(n: int, row: Row, env: Env) -> Finding | None:
        if all(is_blank(row[f]) for f in names):
            return None
        key = key_of(row, env)
        first = first_row.setdefault(key, n)
        if first == n:
            return None
        actual = " / ".join(row[f] for f in names)
        return make(n, row, label, f"unique (first seen in row {first})", actual)

    return check


def _compare(spec: RuleSpec, ctx: CompileContext) -> Check:
    left, op = spec.params["left"], spec.params["op"]
    right = spec.params.get("right")
    compare = COMPARATORS[op]
    constant: Value = None
    if right is None:
        raw = spec.params["value"]
        kind = ctx.types.get(left, "string")
        constant = (
            float(raw) if kind in ("number", "integer") and not isinstance(raw, str) else None
        )
        if constant is None:
            constant = CONVERTERS[kind](_text(raw)) if kind != "string" else _text(raw)
        if constant is None:
            raise rule_error(spec, f"`value` {raw!r} does not suit the {kind} column {left!r}")
    shown = right or format_value(constant)
    make = finding_maker(spec, f"{{field}} must be {op} {shown}", f"check {left} against {shown}")

    def check(n: int, row: Row, env: Env) -> Finding | None:
        a = env[left]
        b = env[right] if right is not None else constant
        if a is None or b is None:
            return None
        try:
            if compare(a, b):
                return None
        except EvalError:
            ctx.skipped[0] += 1
            return None
        expected = format_value(b) if op == "==" else f"{op} {format_value(b)}"
        return make(n, row, left, expected, row[left])

    return check


def _sum_equals(spec: RuleSpec, ctx: CompileContext) -> Check:
    total, parts = spec.params["total"], spec.params["parts"]
    tolerance = float(spec.params.get("tolerance", 0)) + 1e-9
    joined = " + ".join(parts)
    make = finding_maker(
        spec, f"{{field}} must equal {joined}", f"check {total} or its parts ({', '.join(parts)})"
    )

    def check(n: int, row: Row, env: Env) -> Finding | None:
        value: Any = env[total]
        if value is None:
            return None
        expected = 0.0
        for part in parts:
            part_value: Any = env[part]
            if part_value is not None:
                expected += part_value
        if abs(value - expected) <= tolerance * max(1.0, abs(expected)):
            return None
        return make(n, row, total, format_value(expected), row[total])

    return check


def _expression(spec: RuleSpec, ctx: CompileContext) -> Check:
    text, tree = spec.params["expr"]
    is_cmp = tree[0] == "cmp"
    left_name = tree[2][1] if is_cmp and tree[2][0] == "name" else None
    shown_field = spec.params.get("field") or left_name or ""
    make = finding_maker(spec, f"expected {text}", "check the values the expression uses")
    op = tree[1] if is_cmp else ""
    compare = COMPARATORS[op] if is_cmp else None
    left = compile_node(tree[2]) if is_cmp else compile_node(tree)
    right = compile_node(tree[3]) if is_cmp else None

    def check(n: int, row: Row, env: Env) -> Finding | None:
        try:
            a = evaluate(left, env)
            if compare is None or right is None:
                if a:
                    return None
                return make(n, row, shown_field, "true", "false")
            b = evaluate(right, env)
            if compare(a, b):
                return None
        except EvalError:
            ctx.skipped[0] += 1
            return None
        expected = format_value(b) if op == "==" else f"{op} {format_value(b)}"
        actual = row[left_name] if left_name is not None else format_value(a)
        return make(n, row, shown_field, expected, actual)

    return check


COMPILERS: dict[str, Callable[[RuleSpec, CompileContext], Check]] = {
    "required": _required,
    "range": _range,
    "length": _length,
    "pattern": _pattern,
    "enum": _enum,
    "unique": _unique,
    "compare": _compare,
    "sum_equals": _sum_equals,
    "reference": _reference,
    "expression": _expression,
}


@dataclass
class CompiledRule:
    """A rule ready to run: the fields whose bad type skips it, its `when`, its check."""

    spec: RuleSpec
    needs: frozenset[str]
    when: Predicate | None
    check: Check
    finish: Callable[[], list[Finding]] | None = None
