"""One-off commands (`procler exec`, and later snippets and recipe steps): a run through the
same execution context as a process, output captured and capped, bounded by a timeout after
which the whole run is stopped (TERM, then KILL) and what it left behind is killed too."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass

from procler.config.model import ProcessSpec
from procler.contexts.base import ExecutionContext, OutputBatch, RunningProcess

OUTPUT_CAP = 64 * 1024  # characters of each stream kept in the answer
STOP_GRACE = 5.0  # seconds between TERM and KILL for a one-off that overran its timeout
DRAIN_WAIT = 2.0  # bound on reading the last output after the run ended


@dataclass(frozen=True)
class OneShotResult:
    exit_code: int | None
    signal: int | None
    stdout: str
    stderr: str
    truncated: bool
    duration_seconds: float
    timed_out: bool

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


class _Capped:
    """Text kept up to a cap; what is past it is counted as truncated, not kept."""

    def __init__(self, cap: int) -> None:
        self.parts: list[str] = []
        self.left = cap
        self.truncated = False

    def add(self, text: str) -> None:
        if len(text) > self.left:
            self.truncated = True
            text = text[: self.left]
        self.left -= len(text)
        if text:
            self.parts.append(text)

    def text(self) -> str:
        return "".join(self.parts)


async def run_once(
    context: ExecutionContext,
    spec: ProcessSpec,
    env: Mapping[str, str],
    timeout: float,
    on_spawn: Callable[[RunningProcess], None] | None = None,
    cap: int = OUTPUT_CAP,
    on_output: Callable[[OutputBatch], None] | None = None,
) -> OneShotResult:
    """Run spec once to its end (or its timeout) and answer what it printed and how it ended;
    on_output sees the output as it comes (a recipe step's, for the log store)."""
    began = time.monotonic()
    proc = await context.start(spec, env, 1)
    if on_spawn is not None:
        on_spawn(proc)
    streams = {"stdout": _Capped(cap), "stderr": _Capped(cap)}

    async def collect() -> None:
        async for item in proc.output():
            batch = (
                item
                if isinstance(item, OutputBatch)
                else OutputBatch(item.stream, [item.text], item.ts or time.time())
            )
            ending = "" if batch.partial else "\n"
            for text in batch.texts:
                streams[batch.stream].add(text + ending)
            if on_output is not None:
                on_output(batch)

    collector = asyncio.create_task(collect())
    timed_out = False
    try:
        info = await asyncio.wait_for(proc.wait(), timeout)
    except TimeoutError:
        timed_out = True
        info = await context.stop(proc, signal.SIGTERM, STOP_GRACE)
    except asyncio.CancelledError:  # cancelled (a recipe's cancel): stop it, leave nothing
        await context.stop(proc, signal.SIGTERM, STOP_GRACE)
        await context.reap_leftovers(proc)
        collector.cancel()
        raise
    await context.reap_leftovers(proc)  # a one-off leaves nothing running behind it
    try:
        await asyncio.wait_for(collector, DRAIN_WAIT)
    except TimeoutError:
        collector.cancel()  # something it started still holds the pipe; it was killed
        proc.stop_reading()
        with contextlib.suppress(asyncio.CancelledError):
            await collector
    return OneShotResult(
        exit_code=info.code,
        signal=info.signal,
        stdout=streams["stdout"].text(),
        stderr=streams["stderr"].text(),
        truncated=streams["stdout"].truncated or streams["stderr"].truncated,
        duration_seconds=round(time.monotonic() - began, 3),
        timed_out=timed_out,
    )
