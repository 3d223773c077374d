"""`procler schedule list|run-now|pause|resume`: the supervisor's side
(procler/cli/schedules.py declares them). What `start` and `stop` do to a scheduled
process (arm its schedule, pause it) is the Operations' start and stop."""

from __future__ import annotations

from typing import Any

from procler.supervisor.commands.processes import Values, timeout_of
from procler.supervisor.operations import RUN_NOW_WAIT, Operations


async def schedule_list(ops: Operations, values: Values) -> Any:
    return {"schedules": ops.schedules(values.get("name"), int(values.get("runs") or 0))}


async def schedule_run_now(ops: Operations, values: Values) -> Any:
    return await ops.run_now(values["name"], timeout_of(values, RUN_NOW_WAIT))


async def schedule_pause(ops: Operations, values: Values) -> Any:
    return ops.pause(values["name"])


async def schedule_resume(ops: Operations, values: Values) -> Any:
    return ops.arm(values["name"])


COMMANDS = {
    "schedule list": schedule_list,
    "schedule run-now": schedule_run_now,
    "schedule pause": schedule_pause,
    "schedule resume": schedule_resume,
}
