"""Every config finding says how to fix it: each place that records one gives a suggestion."""

from __future__ import annotations

import ast
from pathlib import Path

import procler.config

CONFIG_PACKAGE = Path(procler.config.__file__).parent
# The call that records a finding -> the position of its suggestion argument.
SUGGESTION_AT = {"at": 4, "add": 2, "Invalid": 1}


def suggestion_of(call: ast.Call, index: int) -> ast.expr | None:
    if any(isinstance(a, ast.Starred) for a in call.args[: index + 1]):
        return call.args[-1]  # findings.at(..., *self._unknown(key)): checked below
    if len(call.args) > index:
        return call.args[index]
    return next((k.value for k in call.keywords if k.arg == "suggestion"), None)


def empty_text(node: ast.expr) -> bool:
    """A suggestion that is, or can be, empty text."""
    if isinstance(node, ast.Constant):
        return not node.value
    if isinstance(node, ast.JoinedStr):
        return not any(
            isinstance(v, ast.Constant) and isinstance(v.value, str) and v.value.strip()
            for v in node.values
        )
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        return empty_text(node.values[-1])  # `hint or "fallback"`: the fallback decides
    if isinstance(node, ast.IfExp):
        return empty_text(node.body) or empty_text(node.orelse)
    return False


def finding_calls() -> list[tuple[str, int, ast.Call]]:
    found = []
    for source in sorted(CONFIG_PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(source.read_text(), str(source))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            receiver = func.value if isinstance(func, ast.Attribute) else None
            if name == "Invalid" or (
                name in ("at", "add") and "findings" in ast.unparse(receiver or func)
            ):
                found.append((source.name, node.lineno, node))
    return found


def test_every_finding_site_gives_a_non_empty_suggestion() -> None:
    calls = finding_calls()
    assert len(calls) > 30  # the walk sees the schema, the builders, the graph and the loader
    missing = []
    for file, line, call in calls:
        name = call.func.attr if isinstance(call.func, ast.Attribute) else "Invalid"
        suggestion = suggestion_of(call, SUGGESTION_AT[name])
        if suggestion is None or empty_text(suggestion):
            missing.append(f"{file}:{line}")
    assert missing == []


def specs_of(spec: object) -> list[object]:
    """spec and every spec inside it (struct fields, list and map items, either branches)."""
    from procler.config.specs import Spec

    found, todo = [], [spec]
    while todo:
        current = todo.pop()
        found.append(current)
        for value in vars(current).values():
            values = value.values() if isinstance(value, dict) else [value]
            todo += [v for v in values if isinstance(v, Spec)]
    return found


def test_values_handed_to_finding_sites_are_never_empty() -> None:
    """The suggestions that come from elsewhere: hints of the schema table and helpers."""
    from procler.config import keys as fields
    from procler.config.specs import MapOf, Struct
    from procler.config.yaml_nodes import _syntax_hint

    hints = [getattr(fields, n) for n in dir(fields) if n.endswith("_HINT")]
    assert all(hints) and len(hints) >= 2
    maps = [spec for spec in specs_of(fields.CONFIG) if isinstance(spec, MapOf)]
    assert len(maps) >= 4
    assert [m.key_hint for m in maps if m.key_pattern is not None and not m.key_hint] == []
    assert all(_syntax_hint(what) for what in ("found a tab", "another document", "other"))
    unknown = Struct({"a": fields.PORT})
    assert all(unknown._unknown(key)[1] for key in ("a", "zzz"))
