"""Recipes (Procler 0.3's section, with our step kinds and options): checked steps,
references to processes, groups, snippets and earlier steps resolved with a did-you-mean,
steps in a container with their container."""

from __future__ import annotations

from typing import Any, NamedTuple

from agentcli.parser import did_you_mean
from procler.config.build_process import ProcessBuilder, given
from procler.config.findings import Findings, child, item
from procler.config.keys import STEP_KINDS
from procler.config.model import Group, ProcessSpec, Recipe, RecipeStep, Snippet, StepCondition
from procler.config.specs import INVALID
from procler.contexts import registry
from procler.snippet_fill import ArgumentInvalid, fill

_PROCESS_STEPS = ("start", "stop", "restart")
_GROUP_STEPS = ("group_start", "group_stop")


class _Known(NamedTuple):
    processes: dict[str, ProcessSpec]
    groups: dict[str, Group]
    snippets: dict[str, Snippet]


def build_recipes(
    raw: Any,
    processes: dict[str, ProcessSpec],
    groups: dict[str, Group],
    snippets: dict[str, Snippet],
    builder: ProcessBuilder,
) -> dict[str, Recipe]:
    """Every recipe; `builder` substitutes vars and records findings, as for processes."""
    known = _Known(processes, groups, snippets)
    recipes: dict[str, Recipe] = {}
    for name, recipe in (raw if isinstance(raw, dict) else {}).items():
        if recipe is INVALID:
            continue
        base = child(child("recipes", name), "steps")
        listed = recipe.get("steps")
        steps = {
            index: _step(item(base, index), index, step, known, builder)
            for index, step in enumerate(listed if isinstance(listed, list) else [])
            if step is not INVALID
        }
        kept = {index: step for index, step in steps.items() if step is not None}
        _check_ids(base, kept, builder.findings)
        recipes[name] = Recipe(
            name,
            tuple(kept.values()),
            **given(recipe, "description", "on_error"),
        )
    return recipes


def _check_ids(path: str, steps: dict[int, RecipeStep], findings: Findings) -> None:
    """Step ids name steps in runs (resume --skip-step ID): two steps cannot share one, and
    `when: {step}` names an earlier one. `steps` are keyed by their place in the file."""
    seen: set[str] = set()
    for index, step in steps.items():
        if step.when is not None and step.when.step is not None and step.when.step not in seen:
            findings.add(
                child(child(item(path, index), "when"), "step"),
                f"when names {step.when.step!r}, not an earlier step",
                did_you_mean(step.when.step, sorted(seen))
                or f"earlier steps: {', '.join(seen) or '(none)'}",
            )
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
    known: _Known,
    builder: ProcessBuilder,
) -> RecipeStep | None:
    findings = builder.findings
    kinds = [kind for kind in STEP_KINDS if kind in raw]
    if len(kinds) != 1 or raw[kinds[0]] is INVALID:
        return None  # the schema reported it
    kind, value = kinds[0], raw[kinds[0]]
    options = given(
        raw, "context", "timeout", "ignore_error", "idempotent", "retries", "retry_delay"
    )
    options["id"] = raw["id"] if "id" in given(raw, "id") else f"{kind}-{index + 1}"
    if kind in ("exec", "snippet"):
        options.setdefault("idempotent", False)  # a command may not be safe to run twice
    if "when" in given(raw, "when"):
        options["when"] = _when(child(path, "when"), raw["when"], known, findings)
    for key in ("container", "cwd"):
        if key in given(raw, key):
            options[key] = builder.sub(child(path, key), raw[key])
    if kind == "exec":
        value = builder.sub(child(path, kind), value)
    if kind in _PROCESS_STEPS:
        _known(path, kind, value, "process", list(known.processes), findings)
    elif kind in _GROUP_STEPS:
        _known(path, kind, value, "group", list(known.groups), findings)
    elif kind == "snippet":
        return _snippet_step(path, raw, known, builder, options)
    if "context" in options or "container" in options:
        options["context"] = registry.exec_context(options.get("context"), options.get("container"))
    if options.get("context") in registry.in_containers() and not options.get("container"):
        findings.add(
            child(path, "context"),
            f"a step in context {options['context']} needs `container`",
            "add container: NAME (the running container the command is run in)",
        )
    if kind == "wait_for":
        if any(value.get(key, INVALID) is INVALID for key in ("process", "condition")):
            return None  # missing or invalid: the schema reported it
        where, names = child(path, kind), list(known.processes)
        _known(where, "process", value["process"], "process", names, findings)
        spec = known.processes.get(value["process"])
        if value["condition"] == "port" and spec is not None and not spec.ports:
            findings.add(
                child(where, "condition"),
                f"wait_for port: {value['process']} declares no ports",
                f"add ports: [PORT] to {value['process']}",
            )
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


def _when(path: str, raw: dict[str, Any], known: _Known, findings: Findings) -> StepCondition:
    fields = given(raw, "step", "outcome", "process", "status")
    if fields.get("process") is not None:
        names = list(known.processes)
        _known(path, "process", fields["process"], "process", names, findings)
    return StepCondition(**fields)


def _snippet_step(
    path: str, raw: dict[str, Any], known: _Known, builder: ProcessBuilder, options: dict[str, Any]
) -> RecipeStep | None:
    """A snippet with its arguments (vars substituted), checked against its declaration."""
    name = raw["snippet"]
    if name not in known.snippets:
        _known(path, "snippet", name, "snippet", list(known.snippets), builder.findings)
        return None
    args = {
        key: builder.sub(child(child(path, "args"), key), value)
        for key, value in (raw["args"] if isinstance(raw.get("args"), dict) else {}).items()
        if value is not INVALID
    }
    snippet = known.snippets[name]
    try:
        fill(snippet.command, snippet.args, args)
    except ArgumentInvalid as exc:
        builder.findings.add(child(path, "args"), f"snippet {name}: {exc}", "fix the argument")
    return RecipeStep("snippet", target=name, args=tuple(args.items()), **options)
