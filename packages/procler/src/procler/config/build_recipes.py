"""Recipes and snippets (Procler 0.3's sections): checked steps, references to processes and
groups resolved with a did-you-mean, docker steps with their container."""

from __future__ import annotations

from typing import Any

from agentcli.parser import did_you_mean
from procler.config.build_process import ProcessBuilder, given
from procler.config.findings import Findings, child, item
from procler.config.keys import STEP_KINDS
from procler.config.model import Group, ProcessSpec, Recipe, RecipeStep, Snippet
from procler.config.specs import INVALID

_PROCESS_STEPS = ("start", "stop", "restart")
_GROUP_STEPS = ("group_start", "group_stop")


def build_recipes(
    raw: Any,
    processes: dict[str, ProcessSpec],
    groups: dict[str, Group],
    builder: ProcessBuilder,
) -> dict[str, Recipe]:
    """Every recipe; `builder` substitutes vars and records findings, as for processes."""
    recipes: dict[str, Recipe] = {}
    for name, recipe in (raw if isinstance(raw, dict) else {}).items():
        if recipe is INVALID:
            continue
        base = child(child("recipes", name), "steps")
        listed = recipe.get("steps")
        steps = [
            _step(item(base, index), step, processes, groups, builder)
            for index, step in enumerate(listed if isinstance(listed, list) else [])
            if step is not INVALID
        ]
        recipes[name] = Recipe(
            name,
            tuple(step for step in steps if step is not None),
            **given(recipe, "description", "on_error"),
        )
    return recipes


def _step(
    path: str,
    raw: dict[str, Any],
    processes: dict[str, ProcessSpec],
    groups: dict[str, Group],
    builder: ProcessBuilder,
) -> RecipeStep | None:
    findings = builder.findings
    kinds = [kind for kind in STEP_KINDS if kind in raw]
    if len(kinds) != 1 or raw[kinds[0]] is INVALID:
        return None  # the schema reported it
    kind, value = kinds[0], raw[kinds[0]]
    options = given(raw, "context", "timeout", "ignore_error")
    for key in ("container", "cwd"):
        if key in given(raw, key):
            options[key] = builder.sub(child(path, key), raw[key])
    if kind == "exec":
        value = builder.sub(child(path, kind), value)
    if kind in _PROCESS_STEPS:
        _known(path, kind, value, "process", list(processes), findings)
    elif kind in _GROUP_STEPS:
        _known(path, kind, value, "group", list(groups), findings)
    if options.get("context") == "docker" and not options.get("container"):
        findings.add(
            child(path, "context"),
            "a docker step needs `container`",
            "add container: NAME (the running container the command is run in)",
        )
    if kind == "wait":
        return RecipeStep(kind, seconds=value, **options)
    return RecipeStep(kind, target=value, **options)


def _known(
    path: str, kind: str, name: str, what: str, names: list[str], findings: Findings
) -> None:
    if name not in names:
        findings.add(
            child(path, kind),
            f"{kind} names unknown {what} {name!r}",
            did_you_mean(name, names) or f"defined {what}s: {', '.join(names) or '(none)'}",
        )


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
        if fields.get("context") == "docker" and not fields.get("container"):
            findings.add(
                child(child("snippets", name), "context"),
                f"snippet {name} has context docker but no container",
                "add container: NAME",
            )
        tags = tuple(t for t in snippet.get("tags") or () if t is not INVALID)
        snippets[name] = Snippet(name, snippet["command"], tags=tags, **fields)
    return snippets
