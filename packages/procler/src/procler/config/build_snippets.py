"""Snippets (Procler 0.3's section, with typed arguments): a snippet in a container needs its
container, a declared default or choice must fit its argument's type."""

from __future__ import annotations

from typing import Any

from procler.config.build_process import ProcessBuilder, given
from procler.config.findings import Findings, child
from procler.config.model import Snippet, SnippetArg
from procler.config.specs import INVALID
from procler.contexts import registry
from procler.snippet_fill import ArgumentInvalid, shell_value


def build_snippets(raw: Any, builder: ProcessBuilder) -> dict[str, Snippet]:
    """Every snippet; its command keeps its text (placeholders are filled when it runs), its
    container gets the config's vars."""
    findings = builder.findings
    snippets: dict[str, Snippet] = {}
    for name, snippet in (raw if isinstance(raw, dict) else {}).items():
        if snippet is INVALID or "command" not in given(snippet, "command"):
            continue
        fields = given(snippet, "description", "context")
        if "container" in given(snippet, "container"):
            where = child(child("snippets", name), "container")
            fields["container"] = builder.sub(where, snippet["container"])
        fields["context"] = registry.exec_context(fields.get("context"), fields.get("container"))
        if fields["context"] in registry.in_containers() and not fields.get("container"):
            findings.add(
                child(child("snippets", name), "context"),
                f"snippet {name} has context {fields['context']} but no container",
                "add container: NAME",
            )
        fields.update(given(snippet, "timeout", "confirm", "cwd"))
        tags = tuple(t for t in _items(snippet.get("tags")) if t is not INVALID)
        args = _snippet_args(child(child("snippets", name), "args"), snippet.get("args"), findings)
        snippets[name] = Snippet(name, snippet["command"], tags=tags, args=args, **fields)
    return snippets


def _snippet_args(path: str, raw: Any, findings: Findings) -> tuple[SnippetArg, ...]:
    """Declared arguments; a default or choice that does not fit the type is a finding."""
    args = []
    for name, spec in (raw if isinstance(raw, dict) else {}).items():
        if spec is INVALID:
            continue
        choices = tuple(c for c in _items(spec.get("choices")) if c is not INVALID)
        arg = SnippetArg(
            name,
            choices=choices,
            **given(spec, "type", "default", "required", "description"),
        )
        for value in (*choices, *(() if arg.default is None else (arg.default,))):
            try:
                shell_value(SnippetArg(name, arg.type), value)
            except ArgumentInvalid as exc:
                findings.add(child(path, name), str(exc), f"use a value of type {arg.type}")
        args.append(arg)
    return tuple(args)


def _items(listed: Any) -> list[Any]:
    """A checked list's entries; none when it is absent or INVALID (a finding says why)."""
    return listed if isinstance(listed, list) else []
