"""Recipes and snippets (Procler 0.3's sections): checked steps, references to processes and
groups resolved with a did-you-mean, docker steps with their container."""

from __future__ import annotations

from typing import Any

from agentcli.parser import did_you_mean
from procler.config.build_process import ProcessBuilder, given
from procler.config.findings import Findings, child, item
from procler.config.keys import STEP_KINDS
from procler.config.model import Group, ProcessSpec, Recipe, RecipeStep, Snippet, SnippetArg
from procler.config.specs import INVALID
from procler.snippet_fill import ArgumentInvalid, shell_value

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
            _step(item(base, index), index, step, processes, groups, builder)
            for index, step in enumerate(listed if isinstance(listed, list) else [])
            if step is not INVALID
        ]
        kept = tuple(step for step in steps if step is not None)
        _unique_ids(base, kept, builder.findings)
        recipes[name] = Recipe(
            name,
            kept,
            **given(recipe, "description", "on_error"),
        )
    return recipes


def _unique_ids(path: str, steps: tuple[RecipeStep, ...], findings: Findings) -> None:
    """Step ids name steps in runs (resume --skip-step ID): two steps cannot share one."""
    seen: set[str] = set()
    for index, step in enumerate(steps):
        if step.id in seen:
            findings.add(
                child(item(path, index), "id"),
                f"step id {step.id!r} is used twice",
                "give every step its own id",
            )
        seen.add(step.id)


def _step(
    path: str,
    index: int,
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
    options = given(raw, "context", "timeout", "ignore_error", "idempotent")
    options["id"] = raw["id"] if "id" in given(raw, "id") else f"{kind}-{index + 1}"
    if kind == "exec":
        options.setdefault("idempotent", False)  # a command may not be safe to run twice
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
    if kind == "wait_for":
        if INVALID in (value.get("process"), value.get("condition")):
            return None  # the schema reported it
        _known(child(path, kind), "process", value["process"], "process", list(processes), findings)
        options["timeout"] = value.get("timeout", options.get("timeout", 60.0))
        return RecipeStep(kind, target=value["process"], condition=value["condition"], **options)
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
        fields.update(given(snippet, "timeout", "confirm", "cwd"))
        tags = tuple(t for t in snippet.get("tags") or () if t is not INVALID)
        args = _snippet_args(child(child("snippets", name), "args"), snippet.get("args"), findings)
        snippets[name] = Snippet(name, snippet["command"], tags=tags, args=args, **fields)
    return snippets


def _snippet_args(path: str, raw: Any, findings: Findings) -> tuple[SnippetArg, ...]:
    """Declared arguments; a default or choice that does not fit the type is a finding."""
    args = []
    for name, spec in (raw if isinstance(raw, dict) else {}).items():
        if spec is INVALID:
            continue
        choices = tuple(c for c in spec.get("choices") or () if c is not INVALID)
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
