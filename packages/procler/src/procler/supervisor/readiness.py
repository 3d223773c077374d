"""When a process of the stack counts as ready (`up --wait`, `ci`, `wait --group/--all --for
healthy`): procler.states.ready (healthy with a health check, up for READY_AFTER without
one, completed, or an armed schedule) of a runtime now; and when it never will be."""

from __future__ import annotations

from procler import states
from procler.supervisor.runtime import ProcessRuntime
from procler.supervisor.waiting import wait_members

LOG_LINES = 10  # stderr lines shown for a process that is not ready


def condition(rt: ProcessRuntime) -> str:
    return states.ready_condition(rt.spec.healthcheck is not None)


def ready(rt: ProcessRuntime) -> bool:
    up = rt.status in states.UP and rt.started_at is not None
    uptime = rt.clock.time() - rt.started_at if up and rt.started_at is not None else None
    return states.ready(rt.status, rt.spec.healthcheck is not None, uptime)


def why_not(rt: ProcessRuntime) -> str | None:
    return states.never_ready(rt.status, rt.desired)


async def settled(rts: list[ProcessRuntime], timeout: float) -> None:
    """Wait until every process is ready or one never will be; woken by status changes and
    at least every READY_AFTER seconds (being up long enough is no status change)."""
    if not rts:
        return
    clock = rts[0].clock
    deadline = clock.monotonic() + timeout
    while not all(ready(rt) for rt in rts) and not any(why_not(rt) for rt in rts):
        left = deadline - clock.monotonic()
        if left <= 0:
            return
        await wait_members(rts, ready, why_not, min(left, states.READY_AFTER))
