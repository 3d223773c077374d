"""The clock seam: real time in the supervisor, controllable time in tests."""

from __future__ import annotations

import time
from functools import lru_cache

from procler.logs.record import format_ts

TYPE_CHECKING = False
if TYPE_CHECKING:
    import asyncio


class Clock:
    """Wall time for records, monotonic time for durations, and sleeping."""

    def time(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        import asyncio  # loaded already where anything awaits; `iso` users (the CLI's
        # answers from disk) need no event loop, and asyncio is 30 modules

        await asyncio.sleep(seconds)

    async def sleep_until(self, wall: float) -> None:
        """Sleep until wall time `wall` (epoch seconds), in bounded steps so that a clock
        set forward or back (NTP, a suspended laptop) is noticed within a minute."""
        while (left := wall - self.time()) > 0:
            await self.sleep(min(left, 60.0))

    async def wait(self, event: asyncio.Event, timeout: float) -> bool:
        """Wait for event at most timeout seconds; True if it was set. (asyncio.timeout,
        not wait_for: no task per wait, and a readiness probe waits every 5 ms.)"""
        if event.is_set():
            return True
        import asyncio  # see sleep

        try:
            async with asyncio.timeout(timeout):
                await event.wait()
        except TimeoutError:
            return False
        return True


@lru_cache(maxsize=1024)  # status formats the same start times again and again
def iso(ts: float | None) -> str | None:
    """UTC ISO-8601 with microseconds and a Z, or None. Cut to the microsecond below, as
    the log store keeps a line's time: an event for a line carries the very text that
    `logs` answers for it (rounding made them differ by 1 us, and the TUI showed the line
    twice)."""
    if ts is None:
        return None
    return format_ts(int(ts * 1_000_000))
