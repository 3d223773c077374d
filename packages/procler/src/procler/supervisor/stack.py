"""`up --wait` and `ci`: the whole stack up, then one answer: ready, or which process is not,
in what status, against which condition, with its last stderr lines."""

from __future__ import annotations

from typing import Any

from agentcli.errors import AgentError
from procler import states
from procler.errors import ConditionImpossible, Timeout
from procler.supervisor.commands_api import CommandHandlers
from procler.supervisor.runtime import ProcessRuntime
from procler.supervisor.waiting import wait_members

LOG_LINES = 10  # stderr lines shown for a process that is not ready
# A process without a health check counts as ready once it has stayed up this long, so one
# that dies a moment after its start is caught rather than reported ready.
SETTLE = 1.0


def _condition(rt: ProcessRuntime) -> str:
    return "healthy" if rt.spec.healthcheck is not None else "running or completed"


def _ready(rt: ProcessRuntime) -> bool:
    if not states.stack_ready(rt.status, rt.spec.healthcheck is not None):
        return False
    if rt.spec.healthcheck is not None or rt.status == states.EXITED:
        return True
    return rt.clock.time() - (rt.started_at or rt.clock.time()) >= SETTLE


def _why_not(rt: ProcessRuntime) -> str | None:
    return states.stack_impossible(rt.status, rt.desired)


async def _settled(rts: list[ProcessRuntime], timeout: float) -> None:
    """Wait until every process is ready or one cannot be; woken by status changes and at
    least every SETTLE seconds (being up long enough is no status change)."""
    if not rts:
        return
    clock = rts[0].clock
    deadline = clock.monotonic() + timeout
    while not all(_ready(rt) for rt in rts) and not any(_why_not(rt) for rt in rts):
        left = deadline - clock.monotonic()
        if left <= 0:
            return
        await wait_members(rts, _ready, _why_not, min(left, SETTLE))


async def up_and_wait(
    handlers: CommandHandlers, values: dict[str, Any], keep_completed: bool = False
) -> dict[str, Any]:
    """Start everything (dependency order), then wait until each process is ready;
    keep_completed: leave alone one-shots that completed (see `up --rerun`)."""
    timeout = float(values.get("timeout") or 60.0)
    started = await handlers.start({**values, "all": True}, keep_completed=keep_completed)
    # what was started (with --namespace: the selection and what it depends on)
    rts = [handlers.sup.runtimes[p["name"]] for p in started["processes"]]
    await handlers.unless_stopping(_settled(rts, timeout), "during up --wait")
    members = [{**handlers.describe(rt), "ready": _ready(rt)} for rt in rts]
    missing = [rt for rt in rts if not _ready(rt)]
    data: dict[str, Any] = {"ready": not missing, "processes": members}
    if not missing:
        return data
    # The wait ends early when one process cannot get ready: that one is the answer.
    missing = [rt for rt in missing if _why_not(rt)] or missing
    data["not_ready"] = [
        {
            "name": rt.name,
            "status": rt.status,
            "condition": _condition(rt),
            "why": _why_not(rt) or f"not {_condition(rt)} after {timeout:g}s",
            "last_exit": rt.last_exit,
            "stderr": list(rt.recent_stderr)[-LOG_LINES:],
        }
        for rt in missing
    ]
    first = data["not_ready"][0]
    message = f"{first['name']} is {first['status']}, not {first['condition']}: {first['why']}"
    if len(missing) > 1:
        message += f" (and {len(missing) - 1} more)"
    error = ConditionImpossible if any(_why_not(rt) for rt in missing) else Timeout
    raise error(
        message,
        suggestion=f"read data.not_ready; `procler logs {first['name']} --run last-failed`",
        data=data,
    )


async def ci(handlers: CommandHandlers, values: dict[str, Any]) -> dict[str, Any]:
    """up --wait, then everything stopped whatever the outcome (exit 0 ready, 1 not)."""
    try:
        data = await up_and_wait(handlers, values)
    except AgentError as err:
        await handlers.stop({"all": True})
        err.data = {**(err.data or {}), "stopped": True}
        raise
    await handlers.stop({"all": True})
    return {**data, "stopped": True}
