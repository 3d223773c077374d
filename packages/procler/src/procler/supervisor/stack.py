"""`up --wait` and `ci`: the whole stack up, then one answer: ready (procler.states.ready,
the definition `wait --all --for healthy` shares), or which process is not, in what status,
against which condition, with its last stderr lines."""

from __future__ import annotations

from typing import Any

from agentcli.errors import AgentError
from procler import states
from procler.errors import ConditionImpossible, Timeout
from procler.supervisor.commands_api import CommandHandlers
from procler.supervisor.runtime import ProcessRuntime
from procler.supervisor.waiting import never_ready, ready, wait_ready


def _condition(rt: ProcessRuntime) -> str:
    return states.ready_condition(rt.spec.healthcheck is not None)


LOG_LINES = 10  # stderr lines shown for a process that is not ready


async def up_and_wait(handlers: CommandHandlers, values: dict[str, Any]) -> dict[str, Any]:
    """Start everything (dependency order), then wait until each process is ready;
    one-shots that completed are left alone (see `up --rerun`)."""
    timeout = float(values.get("timeout") or 60.0)
    clock = handlers.sup.clock
    deadline = clock.monotonic() + timeout  # --timeout bounds the whole command
    started = await handlers.start({**values, "all": True})
    # what was started (with --namespace: the selection and what it depends on)
    rts = [handlers.sup.runtimes[p["name"]] for p in started["processes"]]
    left = max(0.0, deadline - clock.monotonic())
    await handlers.unless_stopping(wait_ready(rts, left), "during up --wait")
    members = [{**handlers.describe(rt), "ready": ready(rt)} for rt in rts]
    missing = [rt for rt in rts if not ready(rt)]
    data: dict[str, Any] = {"ready": not missing, "processes": members}
    if not missing:
        return data
    # The wait ends early when one process cannot get ready: that one is the answer.
    missing = [rt for rt in missing if never_ready(rt)] or missing
    data["not_ready"] = [
        {
            "name": rt.name,
            "status": rt.status,
            "condition": _condition(rt),
            "why": never_ready(rt) or f"not {_condition(rt)} after {timeout:g}s",
            "last_exit": rt.last_exit,
            "stderr": list(rt.recent_stderr)[-LOG_LINES:],
        }
        for rt in missing
    ]
    first = data["not_ready"][0]
    message = f"{first['name']} is {first['status']}, not {first['condition']}: {first['why']}"
    if len(missing) > 1:
        message += f" (and {len(missing) - 1} more)"
    error = ConditionImpossible if any(never_ready(rt) for rt in missing) else Timeout
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
