"""What each kind of recipe step does, through the Operations as the command it names
does (`stop: api` stops as `procler stop api` does, `snippet: X` runs as `procler snippet
run X`, `exec:` as `procler exec`); and whether a step's `when` holds."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from procler.config.graph import DependencyGraph
from procler.config.model import RecipeStep
from procler.contexts.base import OutputBatch
from procler.selection import instances, split_named

if TYPE_CHECKING:
    from procler.supervisor.operations import Operations, Row


STREAMED = ("exec", "snippet")  # step kinds whose output reaches the log store as it comes


class StepOutcome:
    """What a step printed (exec) or did (process steps), and its exit code (exec)."""

    __slots__ = ("exit_code", "output", "truncated")

    def __init__(self, output: str, exit_code: int | None = None, truncated: bool = False):
        self.output = output
        self.exit_code = exit_code
        self.truncated = truncated


def exec_outcome(data: dict[str, Any]) -> StepOutcome:
    """An exec step's answer (or its failure's data) as a step outcome."""
    return StepOutcome(data["stdout"] + data["stderr"], data["exit_code"], data["truncated"])


def _statuses(rows: list[Row]) -> StepOutcome:
    return StepOutcome("\n".join(f"{p['name']} is {p['status']}" for p in rows))


def _target(ops: Operations, target: str, rows: list[Row]) -> StepOutcome:
    """A process step says its target's status (rolled up over its instances)."""
    return _statuses([split_named(ops.config(), target, rows)[0]])


async def run_step(
    ops: Operations, step: RecipeStep, on_output: Callable[[OutputBatch], None]
) -> StepOutcome:
    """Do one step; an AgentError says why it failed (exec failures carry their output).
    An exec or snippet step's output also goes to on_output as it comes."""
    target = step.target
    if step.kind == "exec":
        data = await ops.run_command(
            target,
            context=step.context,
            container=step.container,
            cwd=step.cwd,
            timeout=step.timeout,
            on_output=on_output,
        )
        return exec_outcome(data)
    if step.kind == "snippet":
        data = await ops.run_snippet(target, dict(step.args), confirmed=True, on_output=on_output)
        return exec_outcome(data)
    if step.kind == "wait":
        await ops.clock.sleep(step.seconds)  # the clock seam: fake time in tests
        return StepOutcome(f"waited {step.seconds:g}s")
    if step.kind == "wait_for":
        if step.condition == "port":
            ports = await ops.wait_for_ports(target, step.timeout)
            return StepOutcome(f"{target} listens on {', '.join(str(p) for p in ports)}")
        status = await ops.wait_for(target, step.condition, step.timeout)
        return StepOutcome(f"{target} is {status} ({step.condition})")
    if step.kind == "start":
        names = instances(ops.config(), target)
        return _target(ops, target, await ops.start(names, timeout=step.timeout))
    if step.kind == "stop":
        return _target(ops, target, await ops.stop(instances(ops.config(), target)))
    if step.kind == "restart":
        names = instances(ops.config(), target)
        return _target(ops, target, await ops.restart(names, timeout=step.timeout))
    if step.kind == "group_start":
        return _statuses(await ops.start_group(target, timeout=step.timeout))
    assert step.kind == "group_stop", f"a step kind the config builds: {step.kind}"
    return _statuses(await ops.stop_group(target))


def step_processes(ops: Operations, step: RecipeStep) -> list[str]:
    """The processes a step acts on: a start's with what it starts first, a group's
    members; none for exec, snippet and wait (nor for a group a reload removed)."""
    cfg = ops.config()
    group = cfg.groups.get(step.target)
    members = list(group.processes) if group is not None else []
    if step.kind in ("start", "group_start"):
        wanted = [step.target] if step.kind == "start" else members
        return DependencyGraph.from_config(cfg).start_order(wanted)
    if step.kind == "group_stop":
        return members
    return [step.target] if step.kind in ("stop", "restart", "wait_for") else []


def condition_met(ops: Operations, step: RecipeStep, outcomes: dict[str, str]) -> str | None:
    """None when the step may run; else why not (its `when` does not hold now)."""
    when = step.when
    if when is None:
        return None
    if when.step is not None:
        outcome = outcomes.get(when.step, "pending")
        return None if outcome == when.outcome else f"step {when.step} is {outcome}"
    status = ops.status_of(when.process or "")
    return None if status == when.status else f"{when.process} is {status}"
