"""What each kind of recipe step does, through the same handlers as the commands it names
(`stop: api` is `procler stop api`, `snippet: X` is `procler snippet run X`) and the one-off
runner `procler exec` uses; and whether a step's `when` holds."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from procler import states
from procler.config.graph import DependencyGraph
from procler.config.model import RecipeStep
from procler.contexts.base import OutputBatch
from procler.errors import ConditionImpossible, Timeout
from procler.supervisor.exec_command import run_command
from procler.supervisor.ports import listening
from procler.supervisor.snippets import run_snippet
from procler.supervisor.waiting import wait_members

if TYPE_CHECKING:
    from procler.supervisor.commands_api import CommandHandlers
    from procler.supervisor.runtime import ProcessRuntime


PORT_POLL = 0.02  # seconds between looks at the ports of a wait_for port
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


def _statuses(answer: dict[str, Any]) -> str:
    listed = answer.get("processes") or [answer]
    return "\n".join(f"{p['name']} is {p['status']}" for p in listed)


async def run_step(
    handlers: CommandHandlers, step: RecipeStep, on_output: Callable[[OutputBatch], None]
) -> StepOutcome:
    """Do one step; an AgentError says why it failed (exec failures carry their output).
    An exec or snippet step's output also goes to on_output as it comes."""
    target = {"name": step.target, "timeout": step.timeout}
    if step.kind == "exec":
        data = await run_command(
            handlers.sup,
            step.target,
            context=step.context,
            container=step.container,
            cwd=step.cwd,
            timeout=step.timeout,
            on_output=on_output,
        )
        return exec_outcome(data)
    if step.kind == "snippet":
        snippet = handlers.sup.config().snippets[step.target]
        given = dict(step.args)
        data = await run_snippet(handlers.sup, snippet, given, True, snippet.timeout, on_output)
        return exec_outcome(data)
    if step.kind == "wait":
        await asyncio.sleep(step.seconds)
        return StepOutcome(f"waited {step.seconds:g}s")
    if step.kind == "wait_for":
        return await _wait_for(handlers, step)
    doing = {
        "start": handlers.start,
        "stop": handlers.stop,
        "restart": handlers.restart,
        "group_start": handlers.group_start,
        "group_stop": handlers.group_stop,
    }[step.kind]
    return StepOutcome(_statuses(await doing(target)))


async def _wait_for(handlers: CommandHandlers, step: RecipeStep) -> StepOutcome:
    """Wait on the real condition (as depends_on conditions are checked), bounded."""
    rt = handlers.sup.runtime(step.target)
    if step.condition == "port":
        return await _wait_for_ports(rt, step.timeout)
    condition = "started" if step.condition == "running" else step.condition

    def met(r: ProcessRuntime) -> bool:
        return states.dependency_met(condition, r.status, r.log_ready)

    def why_not(r: ProcessRuntime) -> str | None:
        return f"it is {r.status}" if states.dependency_impossible(condition, r.status) else None

    await wait_members([rt], met, why_not, step.timeout)
    if met(rt):
        return StepOutcome(f"{rt.name} is {rt.status} ({step.condition})")
    reason = why_not(rt)
    if reason is not None:
        raise ConditionImpossible(f"{rt.name} cannot be {step.condition}: {reason}")
    raise Timeout(f"{rt.name} not {step.condition} after {step.timeout:g}s: it is {rt.status}")


def step_processes(handlers: CommandHandlers, step: RecipeStep) -> list[str]:
    """The processes a step acts on: a start's with what it starts first, a group's
    members; none for exec, snippet and wait (nor for a group a reload removed)."""
    cfg = handlers.sup.config()
    group = cfg.groups.get(step.target)
    members = list(group.processes) if group is not None else []
    if step.kind in ("start", "group_start"):
        wanted = [step.target] if step.kind == "start" else members
        return DependencyGraph.from_config(cfg).start_order(wanted)
    if step.kind == "group_stop":
        return members
    return [step.target] if step.kind in ("stop", "restart", "wait_for") else []


def condition_met(
    handlers: CommandHandlers, step: RecipeStep, outcomes: dict[str, str]
) -> str | None:
    """None when the step may run; else why not (its `when` does not hold now)."""
    when = step.when
    if when is None:
        return None
    if when.step is not None:
        outcome = outcomes.get(when.step, "pending")
        return None if outcome == when.outcome else f"step {when.step} is {outcome}"
    status = handlers.sup.runtime(when.process or "").status
    return None if status == when.status else f"{when.process} is {status}"


async def _wait_for_ports(rt: ProcessRuntime, timeout: float) -> StepOutcome:
    """Until every declared port of the process is listening; a port opening is no status
    change, so it is looked up every PORT_POLL seconds, bounded by the timeout (the end of
    the process wakes the wait at once)."""
    deadline = rt.clock.monotonic() + timeout
    while True:
        closed = [port for port in rt.spec.ports if not listening(port)]
        if not closed:
            ports = ", ".join(str(p) for p in rt.spec.ports)
            return StepOutcome(f"{rt.name} listens on {ports}")
        if rt.status in states.AT_REST:
            raise ConditionImpossible(
                f"{rt.name} will not open port {closed[0]}: it is {rt.status}"
            )
        left = deadline - rt.clock.monotonic()
        if left <= 0:
            raise Timeout(f"{rt.name}: port {closed[0]} not listening after {timeout:g}s")
        await rt.wait_until(lambda r: r.status in states.AT_REST, min(PORT_POLL, left))
