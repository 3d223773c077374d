"""`recipe run --dry-run`: the steps played in order on a model of the stack (each step sees
what the steps before it leave, not the processes as they are now), each with what it would
do, in the shape of a run, writing nothing.

The model is each process's status, starting from the supervisor's; a step moves it as the
step would: `start` starts what is not running in dependency order (and touches nothing
when its process runs), leaves a one-shot that completed in this session alone (the rule
`start` follows) and names every one-shot it would run; `stop` stops only its process;
`wait_for` says whether its condition will hold then. The rules are the ones the commands
use (procler.states), so the plan cannot promise what the run would not do.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from procler import states
from procler.config.graph import DependencyGraph
from procler.config.model import ProjectConfig, Recipe, RecipeStep
from procler.snippet_fill import fill
from procler.supervisor.recipes.run_record import new_run

if TYPE_CHECKING:
    from procler.supervisor.operations import Operations


@dataclass
class Stack:
    """The processes' statuses as the steps so far leave them."""

    cfg: ProjectConfig
    status: dict[str, str]
    completed: set[str]  # one-shots that completed in this session with their definition
    moved_by: dict[str, str] = field(default_factory=dict)  # name -> the step that moved it

    def one_shot(self, name: str) -> bool:
        """Known to complete: it did, or something waits for it to have completed."""
        if self.status[name] == states.EXITED:
            return True
        return any(
            d.name == name and d.condition == "completed_successfully"
            for spec in self.cfg.processes.values()
            for d in spec.depends_on
        )

    def seen(self, name: str) -> str:
        """`NAME is STATUS`, or `will be` when an earlier step moved it."""
        by = self.moved_by.get(name)
        verb = f"will be {self.status[name]} (after {by})" if by else f"is {self.status[name]}"
        return f"{name} {verb}"

    def move(self, name: str, status: str, step: str) -> None:
        self.status[name] = status
        self.moved_by[name] = step


@dataclass
class Planned:
    text: str
    one_shots: list[str] = field(default_factory=list)  # one-shots the step would run


def plan(ops: Operations, recipe: Recipe) -> dict[str, Any]:
    """The run as it would be recorded, each step with `plan` (what it would do, given what
    the steps before it did) and `runs_one_shots` (for a step that starts processes)."""
    cfg = ops.config()
    stack = Stack(
        cfg,
        {n: ops.status_of(n) for n in cfg.processes},
        {n for n in cfg.processes if ops.completed(n)},
    )
    run = new_run("", recipe, ops.clock.time()).as_dict()
    steps = []
    for record, step in zip(run["steps"], recipe.steps, strict=True):
        planned = play(stack, step, record["id"])
        row = {**record, "plan": planned.text}
        if step.kind in ("start", "restart", "group_start"):
            row["runs_one_shots"] = planned.one_shots
        steps.append(row)
    return {**run, "run_id": None, "status": "planned", "dry_run": True, "steps": steps}


def play(stack: Stack, step: RecipeStep, step_id: str) -> Planned:
    """What the step would do to the stack as it is at that point, and the stack after."""
    cfg = stack.cfg
    graph = DependencyGraph.from_config(cfg)
    if step.kind == "start":
        return _start(stack, graph, [step.target], step_id)
    if step.kind == "group_start":
        return _start(stack, graph, list(cfg.groups[step.target].processes), step_id)
    if step.kind == "group_stop":
        group = cfg.groups[step.target]
        rest = [m for m in group.processes if m not in group.stop_order]
        later = [n for level in graph.stop_levels(rest) for n in level if n in rest]
        return Planned("; ".join(_stop(stack, n, step_id) for n in (*group.stop_order, *later)))
    if step.kind == "stop":
        return Planned(_stop(stack, step.target, step_id))
    if step.kind == "restart":
        name = step.target
        was = stack.seen(name)
        doing = "stop and start it" if stack.status[name] in states.ALIVE else "start it"
        runs = [name] if stack.one_shot(name) else []
        stack.completed.discard(name)
        stack.move(name, _started(stack, name), step_id)
        return Planned(f"{was}: restart will {doing}" + _running(runs), runs)
    if step.kind == "wait":
        return Planned(f"wait {step.seconds:g}s")
    if step.kind == "wait_for":
        return Planned(_wait_for(stack, step))
    if step.kind == "snippet":
        snippet = cfg.snippets[step.target]
        command = fill(snippet.command, snippet.args, dict(step.args))
        return Planned(f"run snippet {step.target}: `{command}` (timeout {snippet.timeout:g}s)")
    where = f"in container {step.container}" if step.container else "locally"
    return Planned(f"run `{step.target}` {where} (timeout {step.timeout:g}s)")


def _started(stack: Stack, name: str) -> str:
    """The status a start leaves a process in (once it settled, as the step waits)."""
    if stack.one_shot(name):
        return states.EXITED
    if stack.cfg.processes[name].schedule is not None:
        return states.SCHEDULED
    return states.HEALTHY if stack.cfg.processes[name].healthcheck is not None else states.RUNNING


def _start(stack: Stack, graph: DependencyGraph, targets: list[str], step_id: str) -> Planned:
    """`start` (and a group's): a target that runs is left as it is with everything it
    needs; the others start after their dependencies, completed one-shots left alone."""
    said, runs = [], []
    todo = [t for t in targets if stack.status[t] not in states.ALIVE]
    for name in targets:
        if name not in todo:
            said.append(f"{stack.seen(name)}: start will leave it (and what it needs) as it is")
    for name in graph.start_order(todo) if todo else []:
        status = stack.status[name]
        if status in states.ALIVE:
            said.append(f"{stack.seen(name)}: start will leave it running")
        elif name in stack.completed:
            said.append(f"{stack.seen(name)}: completed; start will not run it again (--rerun)")
        else:
            if stack.one_shot(name):
                runs.append(name)
            said.append(f"{stack.seen(name)}: start will start it")
            stack.move(name, _started(stack, name), step_id)
            if stack.status[name] == states.EXITED:
                stack.completed.add(name)
    return Planned("; ".join(said) + _running(runs), runs)


def _running(one_shots: list[str]) -> str:
    return f" (runs one-shot {', '.join(one_shots)})" if one_shots else ""


def _stop(stack: Stack, name: str, step_id: str) -> str:
    was = stack.seen(name)
    if stack.status[name] not in states.ALIVE:
        return f"{was}: stop will leave it stopped"
    stack.move(name, states.STOPPED, step_id)
    return f"{was}: stop will stop it"


def _wait_for(stack: Stack, step: RecipeStep) -> str:
    name, goal = step.target, step.condition
    status = stack.status[name]
    if goal == "port":
        return f"{stack.seen(name)}: wait up to {step.timeout:g}s for it to listen on its ports"
    condition = "started" if goal == "running" else goal
    if states.dependency_met(condition, status, log_ready=False) and goal != "log_ready":
        return f"{stack.seen(name)}: wait_for {goal} will hold at once"
    if states.dependency_impossible(condition, status):
        return f"{stack.seen(name)}: wait_for {goal} will fail (it cannot be {goal} then)"
    return f"{stack.seen(name)}: wait up to {step.timeout:g}s for it to be {goal}"
