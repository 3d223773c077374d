"""Dependency-ordered start and stop over several processes.

Each process of the plan starts as soon as every dependency's condition holds, so
independent branches start in parallel and a chain starts in order (as docker compose
does). A dependency that cannot reach its condition stops the plan with
DEPENDENCY_FAILED, naming it, with the cause as data (`cause`: the error that kept it from
starting, e.g. PORT_IN_USE with the port and its holder, or the status it ended in),
however deep in the chain; what was started stays running and is listed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from agentcli.errors import AgentError
from procler import states
from procler.config.graph import DependencyGraph
from procler.config.model import Dependency
from procler.errors import DependencyFailed
from procler.supervisor.runtime import ProcessRuntime
from procler.supervisor.waiting import together, wait_until_all


class Blocked(DependencyFailed):
    def __init__(
        self, dep: ProcessRuntime, condition: str, waiting: str, why: str, cause: dict[str, Any]
    ) -> None:
        super().__init__(why)
        self.dep, self.condition, self.waiting, self.why = dep, condition, waiting, why
        self.cause = cause


# What of an error's data the cause carries (a status row would bury it).
CAUSE_KEYS = ("port", "holder", "host", "image", "container", "exit_code", "last_exit", "stderr")


def error_cause(name: str, err: AgentError) -> dict[str, Any]:
    """The error that kept dependency `name` from starting, as data (a blocked start's
    own cause, from further down)."""
    if isinstance(err, Blocked):
        return err.cause
    data = err.data if isinstance(err.data, dict) else {}
    return {
        "process": name,
        "error_code": err.code,
        "message": err.message,
        **{k: data[k] for k in CAUSE_KEYS if k in data},
    }


def status_cause(rt: ProcessRuntime, why: str) -> dict[str, Any]:
    """A dependency that will not meet its condition, as data: where it is, how it ended."""
    return {
        "process": rt.name,
        "message": why,
        "status": rt.status,
        "last_exit": rt.last_exit,
        "stderr": list(rt.recent_stderr)[-10:],
    }


async def wait_condition(
    runtime: ProcessRuntime, dep: Dependency, waiting: str, deadline: float
) -> None:
    """Wait until dep's condition holds on runtime; raise Blocked when it cannot or time is up."""

    def met(r: ProcessRuntime) -> bool:
        return states.dependency_met(dep.condition, r.status, r.log_ready)

    def settled(r: ProcessRuntime) -> bool:
        return met(r) or states.dependency_impossible(dep.condition, r.status)

    left = deadline - runtime.clock.monotonic()
    if not await runtime.wait_until(settled, max(0.0, left)):
        why = f"timed out waiting for {dep.name} to be {dep.condition}"
        raise Blocked(runtime, dep.condition, waiting, why, status_cause(runtime, why))
    if not met(runtime):
        why = f"{dep.name} is {runtime.status}, so it will not be {dep.condition}"
        raise Blocked(runtime, dep.condition, waiting, why, status_cause(runtime, why))


def at_least(deps: tuple[Dependency, ...]) -> list[list[Dependency]]:
    """The `depends_on: {name, min}` entries, one list per process with replicas."""
    sets: dict[str, list[Dependency]] = {}
    for dep in deps:
        if dep.min is not None:
            sets.setdefault(dep.replica_of or dep.name, []).append(dep)
    return list(sets.values())


async def wait_enough(
    runtimes: dict[str, ProcessRuntime],
    deps: list[Dependency],
    tasks: dict[str, asyncio.Task[dict[str, Any]]],
    waiting: str,
    deadline: float,
) -> None:
    """Wait until `min` of a process's instances meet the condition (the others may fail);
    raise Blocked when too few can, or time is up."""
    first = deps[0]
    least, condition, base = first.min or len(deps), first.condition, first.replica_of
    rts = [runtimes[d.name] for d in deps]
    mine = [tasks[d.name] for d in deps if d.name in tasks]
    if mine:  # their starts run in this plan: once begun, their statuses tell
        await asyncio.wait([asyncio.shield(t) for t in mine])

    def enough() -> bool:
        return states.enough_met(condition, [(r.status, r.log_ready) for r in rts], least)

    def hopeless() -> bool:
        return states.enough_impossible(condition, [r.status for r in rts], least)

    left = deadline - rts[0].clock.monotonic()
    await wait_until_all(rts, lambda: enough() or hopeless(), max(0.0, left))
    if enough():
        return
    had = ", ".join(f"{r.name} {r.status}" for r in rts)
    why = (
        f"fewer than {least} of {base}'s instances can be {condition} ({had})"
        if hopeless()
        else f"timed out waiting for {least} of {base}'s instances to be {condition} ({had})"
    )
    failed = [
        (d.name, err)
        for d in deps
        if d.name in tasks
        and tasks[d.name].done()
        and not tasks[d.name].cancelled()
        and isinstance(err := tasks[d.name].exception(), AgentError)
    ]
    cause = error_cause(*failed[0]) if failed else status_cause(rts[0], why)
    raise Blocked(rts[0], condition, waiting, why, cause)


async def start_plan(
    runtimes: dict[str, ProcessRuntime],
    graph: DependencyGraph,
    targets: Iterable[str],
    deps_of: Callable[[str], tuple[Dependency, ...]],
    start_one: Callable[[ProcessRuntime], Awaitable[dict[str, Any]]],
    timeout: float,
    with_deps: bool = True,
    describe: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """Start targets (and, with_deps, what they need) in dependency order; return outcomes
    (`describe` makes an outcome a whole answer, for the error of a blocked start)."""
    wanted = list(targets)
    names = graph.start_order(wanted) if with_deps else wanted
    clock = runtimes[names[0]].clock if names else None
    deadline = (clock.monotonic() if clock else 0.0) + timeout
    tasks: dict[str, asyncio.Task[dict[str, Any]]] = {}
    outcomes: dict[str, dict[str, Any]] = {}

    async def bring_up(name: str) -> dict[str, Any]:
        rt = runtimes[name]
        if with_deps:
            for enough in at_least(deps_of(name)):
                await wait_enough(runtimes, enough, tasks, name, deadline)
            for dep in deps_of(name):
                if dep.min is not None:
                    continue  # waited for above
                if dep.name in tasks:
                    try:
                        await asyncio.shield(tasks[dep.name])
                    except AgentError as err:
                        if isinstance(err, DependencyFailed):
                            raise
                        why = f"{dep.name} could not start: {err.message}"
                        cause = error_cause(dep.name, err)
                        raise Blocked(runtimes[dep.name], dep.condition, name, why, cause) from None
                await wait_condition(runtimes[dep.name], dep, name, deadline)
        result = await start_one(rt)
        outcomes[name] = result
        return result

    if len(names) == 1 and not (with_deps and deps_of(names[0])):
        # one start with nothing to wait for (a recipe's step, `start api`): no task to
        # make and gather, two turns of the loop fewer between the start and its answer
        return [await bring_up(names[0])]
    for name in names:
        tasks[name] = asyncio.create_task(bring_up(name))
    done = dict(
        zip(tasks, await asyncio.gather(*tasks.values(), return_exceptions=True), strict=True)
    )
    # every process that could not start, each once, whatever its branch: one answer names
    # every fault, not only the first found
    failures = list(
        {
            (cause := error_cause(name, r))["process"]: cause
            for name, r in done.items()
            if isinstance(r, AgentError)
        }.values()
    )
    for result in done.values():
        if isinstance(result, Blocked):
            for task in tasks.values():
                task.cancel()
            dep = result.dep
            whole = describe or (lambda o: o)
            info = whole({"name": dep.name, "status": dep.status})
            raise DependencyFailed(
                f"cannot start {result.waiting}: {result.why}",
                data={
                    "blocking": {**info, "stderr": list(dep.recent_stderr)},
                    "waiting": result.waiting,
                    "condition": result.condition,
                    "cause": result.cause,
                    "failures": failures,
                    "started": [whole(outcomes[n]) for n in names if n in outcomes],
                },
            )
    for result in done.values():
        if isinstance(result, AgentError) and len(failures) > 1:
            data = result.data if isinstance(result.data, dict) else {}
            result.data = {**data, "failures": failures}
        if isinstance(result, BaseException):
            raise result
    return [outcomes[n] for n in names]


async def stop_plan(
    runtimes: dict[str, ProcessRuntime],
    levels: list[list[str]],
    stop_one: Callable[[ProcessRuntime], Awaitable[dict[str, Any]]],
) -> list[dict[str, Any]]:
    """Stop level by level (dependents first); processes within a level stop in parallel."""
    out: list[dict[str, Any]] = []
    for level in levels:
        out += await together([stop_one(runtimes[n]) for n in level])
    return out
