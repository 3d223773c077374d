"""Fakes for the OS seam: a context whose processes end when the test says, and a clock."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import AsyncIterator, Mapping
from typing import TYPE_CHECKING, Any

from procler.config.model import ProcessSpec
from procler.contexts.base import (
    ExecutionContext,
    ExitInfo,
    OutputBatch,
    OutputLine,
    RunningProcess,
)
from procler.supervisor.clock import Clock

if TYPE_CHECKING:
    from procler.supervisor.runtime import ProcessRuntime


class FakeClock(Clock):
    """Time moves only when nothing else can: no real waiting, no counted loop turns.

    Every sleep and timed wait registers a timer. A driver task jumps `now` to the
    earliest timer and fires it, but only once the event loop has nothing else ready to
    run: so time advances on demand, when every task is waiting on the clock.
    """

    def __init__(self) -> None:
        self.now = 1_000_000.0
        self.sleeps: list[float] = []
        self._timers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._added: asyncio.Event | None = None
        self._driver: asyncio.Task[None] | None = None

    def time(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        await self._timer(seconds)

    async def wait(self, event: asyncio.Event, timeout: float) -> bool:
        if event.is_set():
            return True
        racing: list[asyncio.Future[Any]] = [
            self._timer(timeout),
            asyncio.ensure_future(event.wait()),
        ]
        try:
            await asyncio.wait(racing, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiting in racing:
                waiting.cancel()
        return event.is_set()

    def _timer(self, seconds: float) -> asyncio.Future[None]:
        loop = asyncio.get_running_loop()
        if self._driver is None:
            self._added = asyncio.Event()
            self._driver = loop.create_task(self._drive())
        fired: asyncio.Future[None] = loop.create_future()
        heapq.heappush(self._timers, (self.now + seconds, next(_ORDER), fired))
        assert self._added is not None
        self._added.set()
        return fired

    async def _drive(self) -> None:
        loop = asyncio.get_running_loop()
        assert self._added is not None
        while True:
            await asyncio.sleep(0)
            # `_ready` holds the callbacks the loop will run next: the one exact test of
            # "nothing else can run now" (counting loop turns is only a guess).
            if loop._ready:  # type: ignore[attr-defined]
                continue
            while self._timers and self._timers[0][2].done():  # cancelled waits
                heapq.heappop(self._timers)
            if not self._timers:
                self._added.clear()
                await self._added.wait()
                continue
            when, _, fired = heapq.heappop(self._timers)
            self.now = max(self.now, when)
            fired.set_result(None)


_ORDER = itertools.count()


class FakeProcess(RunningProcess):
    def __init__(self, pid: int, exit_now: ExitInfo | None) -> None:
        self._pid = pid
        self.ended: asyncio.Future[ExitInfo] = asyncio.get_running_loop().create_future()
        self.lines = [OutputLine("stderr", f"boom from {pid}")]
        if exit_now is not None:
            self.ended.set_result(exit_now)

    @property
    def pid(self) -> int | None:
        return self._pid

    async def wait(self) -> ExitInfo:
        return await asyncio.shield(self.ended)

    async def output(self) -> AsyncIterator[OutputLine | OutputBatch]:
        for line in self.lines:
            yield line
        await asyncio.shield(self.ended)

    def details(self, stat: Any = None) -> dict[str, Any]:
        return {"linux_state": None}

    def end(self, info: ExitInfo) -> None:
        if not self.ended.done():
            self.ended.set_result(info)


class FakeContext(ExecutionContext):
    """Each start pops the next planned exit (None: keeps running until stopped)."""

    def __init__(
        self, plan: list[ExitInfo | None] | None = None, ignore_term: bool = False
    ) -> None:
        self.plan = list(plan or [])
        self.started: list[FakeProcess] = []
        self.signals: list[tuple[int, int]] = []
        self.ignore_term = ignore_term
        self.probes: list[str] = []
        self.probe_results: list[bool] = []

    async def start(self, spec: ProcessSpec, env: Mapping[str, str], run: int) -> RunningProcess:
        proc = FakeProcess(100 + len(self.started), self.plan.pop(0) if self.plan else None)
        self.started.append(proc)
        return proc

    async def signal(self, proc: RunningProcess, signum: int) -> None:
        assert isinstance(proc, FakeProcess) and proc.pid is not None
        self.signals.append((proc.pid, signum))
        if signum == 9 or not self.ignore_term:
            proc.end(ExitInfo(None, signum))

    async def exec_probe(
        self, spec: ProcessSpec, command: str, env: Mapping[str, str], timeout: float
    ) -> tuple[bool, str]:
        self.probes.append(command)
        ok = self.probe_results.pop(0) if self.probe_results else True
        return ok, "exit 0: ok" if ok else "exit 1: down"

    async def stop(self, proc: RunningProcess, signum: int, timeout: float) -> ExitInfo:
        await self.signal(proc, signum)
        assert isinstance(proc, FakeProcess)
        if not proc.ended.done():
            await self.signal(proc, 9)
        return await proc.wait()


class FakeHost:
    def __init__(self) -> None:
        self.events: list[tuple[str, str, str, str]] = []
        self.lines: list[tuple[str, int, str]] = []
        self.health_moves: list[tuple[str, str, str]] = []

    def environment(self, spec: ProcessSpec) -> dict[str, str]:
        return {"PROCLER_PROCESS_NAME": spec.name}

    def record(self, rt: ProcessRuntime, src: str, dst: str, reason: str) -> None:
        self.events.append((rt.name, src, dst, reason))

    def health(self, rt: ProcessRuntime, src: str, dst: str, reason: str) -> None:
        self.health_moves.append((rt.name, src, dst))

    def exited(self, rt: ProcessRuntime, run: int | None) -> None:
        pass

    def spawned(self, rt: ProcessRuntime, proc: RunningProcess) -> None:
        pass

    def reaped(self, rt: ProcessRuntime, proc: RunningProcess) -> None:
        pass

    def specs_changed(self) -> None:
        pass

    def output(self, rt: ProcessRuntime, run: int, batch: OutputBatch) -> None:
        self.lines.extend((rt.name, run, text) for text in batch.texts)
