"""When a process of the stack counts as ready (`up --wait`, `ci`): healthy with a health
check, else running for a moment, or completed; and when it no longer can be."""

from __future__ import annotations

from procler import states
from procler.supervisor.runtime import ProcessRuntime
from procler.supervisor.waiting import wait_members

LOG_LINES = 10  # stderr lines shown for a process that is not ready
# A process without a health check counts as ready once it has stayed up this long, so one
# that dies a moment after its start is caught rather than reported ready.
SETTLE = 1.0


def condition(rt: ProcessRuntime) -> str:
    return "healthy" if rt.spec.healthcheck is not None else "running or completed"


def ready(rt: ProcessRuntime) -> bool:
    if not states.stack_ready(rt.status, rt.spec.healthcheck is not None):
        return False
    if rt.spec.healthcheck is not None or rt.status == states.EXITED:
        return True
    return rt.clock.time() - (rt.started_at or rt.clock.time()) >= SETTLE


def why_not(rt: ProcessRuntime) -> str | None:
    return states.stack_impossible(rt.status, rt.desired)


async def settled(rts: list[ProcessRuntime], timeout: float) -> None:
    """Wait until every process is ready or one cannot be; woken by status changes and at
    least every SETTLE seconds (being up long enough is no status change)."""
    if not rts:
        return
    clock = rts[0].clock
    deadline = clock.monotonic() + timeout
    while not all(ready(rt) for rt in rts) and not any(why_not(rt) for rt in rts):
        left = deadline - clock.monotonic()
        if left <= 0:
            return
        await wait_members(rts, ready, why_not, min(left, SETTLE))
