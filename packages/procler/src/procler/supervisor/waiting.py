"""Waiting on several processes at once, bounded, ending early when one cannot get there."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from procler.supervisor.runtime import ProcessRuntime


async def wait_members(
    rts: list[ProcessRuntime],
    met: Callable[[ProcessRuntime], bool],
    why_not: Callable[[ProcessRuntime], str | None],
    timeout: float,
) -> None:
    """Wait (bounded by timeout) until every process meets the condition, or until one
    of them cannot any more: that ends the wait at once."""
    if not rts:
        return
    clock = rts[0].clock
    deadline = clock.monotonic() + timeout
    while not all(met(rt) for rt in rts) and not any(why_not(rt) is not None for rt in rts):
        left = deadline - clock.monotonic()
        if left <= 0:
            return
        # Wake on the next change of any member (a done one may still fail).
        changes = [asyncio.ensure_future(_changed(rt, left)) for rt in rts]
        try:
            await asyncio.wait(changes, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for change in changes:
                change.cancel()


async def _changed(rt: ProcessRuntime, timeout: float) -> bool:
    """Wait (bounded) until rt's status differs from what it is now."""
    now = rt.status
    return await rt.wait_until(lambda r: r.status != now, timeout)
