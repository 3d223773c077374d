"""Checks on a cell's text (surrounding spaces removed): required, length, pattern, enum,
reference. Blank cells pass every one of them except `required`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from officecli.fieldcheck.chunk import Check, Chunk, CompileContext, Hits
from officecli.fieldcheck.findings import finding_maker
from officecli.fieldcheck.model import RuleSpec
from officecli.fieldcheck.values import CONVERTERS, format_value


def text_check(
    spec: RuleSpec,
    name: str,
    expected: str,
    message: str,
    suggestion: str,
    ok: Callable[[list[str]], list[Any]],
) -> Check:
    """A rule passing where `ok(stripped texts)` is true, or the cell is blank."""
    make = finding_maker(spec, message, suggestion)

    def check(chunk: Chunk, rows: Sequence[int]) -> Hits:
        col = chunk.raw[name]
        stripped = list(map(str.strip, col))
        oks = ok(stripped)
        hits = [i for i in rows if not oks[i] and stripped[i]]
        return [(i, make(chunk.place(i), chunk.row(i), name, expected, col[i])) for i in hits]

    return check


def length_check(spec: RuleSpec, ctx: CompileContext) -> Check:
    low, high = spec.params.get("min", 0), spec.params.get("max")
    expected = f"{low} to {high} characters" if high is not None else f"at least {low} characters"
    return text_check(
        spec,
        spec.params["field"],
        expected,
        "{field} must have " + expected,
        "shorten or complete {field}",
        lambda texts: [low <= n <= (n if high is None else high) for n in map(len, texts)],
    )


def pattern_check(spec: RuleSpec, ctx: CompileContext) -> Check:
    regex = spec.params["regex"]
    return text_check(
        spec,
        spec.params["field"],
        f"matches {regex.pattern}",
        "{field} has an unexpected format",
        f"write {{field}} as {regex.pattern}",
        lambda texts: list(map(regex.fullmatch, texts)),
    )


def scalar_text(value: Any) -> str:
    """A YAML scalar as cell text: 1 -> '1', 1.5 -> '1.5', true -> 'true'."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return format_value(float(value)) if isinstance(value, int | float) else str(value)


def enum_check(spec: RuleSpec, ctx: CompileContext) -> Check:
    name = spec.params["field"]
    allowed = [scalar_text(v) for v in spec.params["values"]]
    texts = frozenset(allowed)
    if ctx.types.get(name) in ("number", "integer"):
        numbers = frozenset(float(v) for v in spec.params["values"] if isinstance(v, int | float))
        parse = CONVERTERS["number"]

        def ok(items: list[str]) -> list[Any]:
            return [t in texts or parse(t) in numbers for t in items]
    else:

        def ok(items: list[str]) -> list[Any]:
            return list(map(texts.__contains__, items))

    expected = "one of: " + ", ".join(allowed)
    return text_check(
        spec, name, expected, "{field} is not an allowed value", f"use {expected}", ok
    )


def reference_check(spec: RuleSpec, ctx: CompileContext) -> Check:
    master = spec.params["master"]
    return text_check(
        spec,
        spec.params["field"],
        f"a value of master {master}",
        "{field} is not in master " + master,
        f"use a value listed in {master}",
        lambda texts: list(map(ctx.masters[master].__contains__, texts)),
    )


def required_check(spec: RuleSpec, ctx: CompileContext) -> Check:
    name = spec.params["field"]
    make = finding_maker(spec, "{field} is required", f"fill in {name}")

    def check(chunk: Chunk, rows: Sequence[int]) -> Hits:
        col = chunk.raw[name]
        hits = [i for i in rows if not (t := col[i]) or t.isspace()]
        return [(i, make(chunk.place(i), chunk.row(i), name, "a value", "")) for i in hits]

    return check
