"""max_memory: a process whose tree's resident memory stays above its limit for two samples
in a row is restarted, with `last_exit.reason: max_memory` (Procler 0.3's key)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable

from procler import states
from procler.contexts import procfs
from procler.supervisor.clock import Clock
from procler.supervisor.runtime import ProcessRuntime

log = logging.getLogger("procler.supervisor")

SAMPLE_EVERY = 2.0  # seconds between samples; only processes with max_memory are read
STRIKES = 2  # consecutive samples over the limit before a restart (one spike is forgiven)
REASON = "max_memory"


class MemoryGuard:
    def __init__(self, runtimes: Callable[[], Iterable[ProcessRuntime]], clock: Clock) -> None:
        self.runtimes = runtimes
        self.clock = clock
        self.strikes: dict[str, int] = {}
        self._task: asyncio.Task[None] | None = None
        self._restarts: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop())

    async def close(self) -> None:
        for task in (self._task, *self._restarts):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def _loop(self) -> None:
        while True:
            await self.clock.sleep(SAMPLE_EVERY)
            self.sample()

    def sample(self) -> None:
        """Read each limited process's memory once; restart those over the limit twice."""
        for rt in self.runtimes():
            limit = rt.spec.max_memory
            pid = rt.proc.pid if rt.proc is not None else None
            if limit is None or pid is None or rt.status not in states.UP:
                self.strikes.pop(rt.name, None)
                continue
            rss = sum(p.rss_bytes for p in procfs.tree(pid))
            strikes = self.strikes[rt.name] = self.strikes.get(rt.name, 0) + 1 if rss > limit else 0
            if strikes >= STRIKES:
                self.strikes[rt.name] = 0
                log.warning(
                    "%s: %d bytes resident, above max_memory %d: restart", rt.name, rss, limit
                )
                task = asyncio.create_task(rt.recycle(REASON, f"memory above {limit} bytes"))
                self._restarts.add(task)
                task.add_done_callback(self._restarts.discard)
