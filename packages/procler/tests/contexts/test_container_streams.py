"""A container run whose output outlives it (its exec left a child holding the stream, on an
engine whose processes are not ours to kill): once the run is over and the drain bound
passed, its stream is closed, so no reader thread or engine connection is left behind."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from procler_testkit.fakes import FakeContext, FakeHost

from procler.config.model import ProcessSpec
from procler.contexts.base import ExitInfo, RunningProcess
from procler.contexts.container_run import ContainerRun, Target
from procler.contexts.docker import DOCKER
from procler.supervisor import oneshot, runtime
from procler.supervisor.clock import Clock
from procler.supervisor.runtime import ProcessRuntime


class HeldStream:
    """An engine stream that something keeps open: it yields nothing until closed."""

    def __init__(self) -> None:
        self.closed = threading.Event()

    def __iter__(self) -> Iterator[bytes]:
        self.closed.wait(30)  # bounded: the test fails first
        return iter(())

    def close(self) -> None:
        self.closed.set()


class OneRun(FakeContext):
    """A context whose start hands over the container run the test made."""

    def __init__(self, run: RunningProcess) -> None:
        super().__init__()
        self.run = run

    async def start(self, spec: ProcessSpec, env: Mapping[str, str], run: int) -> RunningProcess:
        return self.run


def held_run() -> tuple[ContainerRun, HeldStream, asyncio.Future[ExitInfo]]:
    exited: asyncio.Future[ExitInfo] = asyncio.get_running_loop().create_future()
    run = ContainerRun(Target("exec", "c0ffee", "box", "busybox"), DOCKER, None, exited)
    stream = HeldStream()
    run.follow_exec(stream)
    return run, stream, exited


def test_a_process_run_whose_output_outlives_it_has_its_stream_closed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runtime, "DRAIN_WAIT", 0.05)

    async def scenario() -> bool:
        run, stream, exited = held_run()
        spec = ProcessSpec(name="box", command="serve", context="docker")
        rt = ProcessRuntime(spec, OneRun(run), FakeHost(), Clock())  # the drain bound is real time
        await rt.start()
        exited.set_result(ExitInfo(0, None))
        assert await rt.wait_until(lambda r: r.status == "exited", 60), rt.status
        return await asyncio.to_thread(stream.closed.wait, 5)

    assert asyncio.run(scenario())


def test_a_one_off_whose_output_outlives_it_has_its_stream_closed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(oneshot, "DRAIN_WAIT", 0.05)

    async def scenario() -> tuple[Any, bool]:
        run, stream, exited = held_run()
        spec = ProcessSpec(name="exec", command="true", context="docker")
        exited.set_result(ExitInfo(0, None))
        result = await oneshot.run_once(OneRun(run), spec, {}, 60)
        return result.exit_code, await asyncio.to_thread(stream.closed.wait, 5)

    assert asyncio.run(scenario()) == (0, True)
