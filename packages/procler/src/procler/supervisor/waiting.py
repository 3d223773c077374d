"""Waiting on several processes at once, bounded, ending early when one cannot get there."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

from procler.supervisor.runtime import ProcessRuntime

T = TypeVar("T")


async def together(awaitables: list[Awaitable[T]]) -> list[T]:
    """asyncio.gather, but a lone one is awaited here: no task to make and gather for a
    single start or stop (a recipe's step), two turns of the loop fewer before its answer."""
    if len(awaitables) == 1:
        return [await awaitables[0]]
    return list(await asyncio.gather(*awaitables))


async def wait_members(
    runtimes: list[ProcessRuntime],
    met: Callable[[ProcessRuntime], bool],
    why_not: Callable[[ProcessRuntime], str | None],
    timeout: float,
) -> None:
    """Wait (bounded by timeout) until every process meets the condition, or until one
    of them cannot any more: that ends the wait at once."""
    if not runtimes:
        return

    def settled() -> bool:
        return all(met(r) for r in runtimes) or any(why_not(r) is not None for r in runtimes)

    await wait_until_all(runtimes, settled, timeout)


async def wait_until_all(
    runtimes: list[ProcessRuntime], done: Callable[[], bool], timeout: float
) -> bool:
    """Wait (bounded) until done(), a condition over several processes, holds; woken by
    each change of a member's status. Whether it holds at the end."""
    clock = runtimes[0].clock
    deadline = clock.monotonic() + timeout
    while not done():
        left = deadline - clock.monotonic()
        if left <= 0:
            return False
        # Wake on the next change of any member (a done one may still fail).
        changes = [asyncio.ensure_future(_changed(runtime, left)) for runtime in runtimes]
        try:
            await asyncio.wait(changes, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for change in changes:
                change.cancel()
    return True


async def _changed(runtime: ProcessRuntime, timeout: float) -> bool:
    """Wait (bounded) until runtime's status differs from what it is now."""
    now = runtime.status
    return await runtime.wait_until(lambda r: r.status != now, timeout)
