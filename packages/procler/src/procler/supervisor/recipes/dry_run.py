"""`recipe run --dry-run`: what each step would do given the processes' current status, in
the shape of a run, writing nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from procler import states
from procler.config.graph import DependencyGraph
from procler.config.model import Recipe, RecipeStep
from procler.snippet_fill import fill
from procler.supervisor.recipes.run_record import new_run

if TYPE_CHECKING:
    from procler.supervisor.operations import Operations


def plan(ops: Operations, recipe: Recipe) -> dict[str, Any]:
    """The run as it would be recorded, each step with `plan`: what it would do now."""
    run = new_run("", recipe, ops.clock.time()).as_dict()
    steps = [
        {**record, "plan": _step_plan(ops, step)}
        for record, step in zip(run["steps"], recipe.steps, strict=True)
    ]
    return {**run, "run_id": None, "status": "planned", "dry_run": True, "steps": steps}


def _step_plan(ops: Operations, step: RecipeStep) -> str:
    cfg = ops.config()
    graph = DependencyGraph.from_config(cfg)
    if step.kind == "start":
        return _starts(ops, graph.start_order([step.target]))
    if step.kind == "group_start":
        return _starts(ops, graph.start_order(cfg.groups[step.target].processes))
    if step.kind == "group_stop":
        group = cfg.groups[step.target]
        rest = [m for m in group.processes if m not in group.stop_order]
        later = [n for level in graph.stop_levels(rest) for n in level if n in rest]
        return "; ".join(_stop(ops, n) for n in (*group.stop_order, *later))
    if step.kind == "stop":
        return _stop(ops, step.target)
    if step.kind == "restart":
        status = _status(ops, step.target)
        doing = "stop and start it" if status in states.ALIVE else "start it"
        return f"{step.target} is {status}: restart will {doing}"
    if step.kind == "wait":
        return f"wait {step.seconds:g}s"
    if step.kind == "wait_for":
        status = _status(ops, step.target)
        goal = "listen on its ports" if step.condition == "port" else f"be {step.condition}"
        return f"{step.target} is {status}: wait up to {step.timeout:g}s for it to {goal}"
    if step.kind == "snippet":
        snippet = cfg.snippets[step.target]
        command = fill(snippet.command, snippet.args, dict(step.args))
        return f"run snippet {step.target}: `{command}` (timeout {snippet.timeout:g}s)"
    where = f"in container {step.container}" if step.container else "locally"
    return f"run `{step.target}` {where} (timeout {step.timeout:g}s)"


def _status(ops: Operations, name: str) -> str:
    return ops.status_of(name)


def _starts(ops: Operations, names: list[str]) -> str:
    said = []
    for name in names:
        status = _status(ops, name)
        doing = "leave it running" if status in states.ALIVE else "start it"
        said.append(f"{name} is {status}: start will {doing}")
    return "; ".join(said)


def _stop(ops: Operations, name: str) -> str:
    status = _status(ops, name)
    doing = "stop it" if status in states.ALIVE else "leave it stopped"
    return f"{name} is {status}: stop will {doing}"
