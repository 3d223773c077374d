"""`stop_command:` before stop_signal, driven through fakes: no process, no sleeping."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

from procler_testkit.fakes import FakeClock, FakeContext, FakeHost

from procler import states
from procler.config.model import ProcessSpec, StopCommand
from procler.contexts.base import ExitInfo
from procler.supervisor.runtime import ProcessRuntime


class StoppedByCommand(FakeContext):
    """`graceful` ends the run with exit code 0 (as pg_ctl stop ends postgres); any other
    command does nothing."""

    def __init__(self) -> None:
        super().__init__(ignore_term=False)
        self.commands: list[tuple[str, dict[str, str], float]] = []

    async def exec_probe(
        self, spec: ProcessSpec, command: str, env: Mapping[str, str], timeout: float
    ) -> tuple[bool, str]:
        self.commands.append((command, dict(env), timeout))
        if command == "graceful":
            self.started[-1].end(ExitInfo(0))
        return True, "exit 0: done"


def make(stop: StopCommand) -> tuple[ProcessRuntime, StoppedByCommand, FakeHost, FakeClock]:
    spec = ProcessSpec(name="db", command="serve", stop_timeout=7.0, stop_command=stop)
    ctx, host, clock = StoppedByCommand(), FakeHost(), FakeClock()
    return ProcessRuntime(spec, ctx, host, clock), ctx, host, clock


def test_a_stop_command_that_ends_the_run_leaves_no_signal_to_send() -> None:
    async def scenario() -> None:
        rt, ctx, host, clock = make(StopCommand("graceful", 3.0))
        await rt.start()
        await rt.stop()
        assert rt.status == states.STOPPED
        assert rt.last_exit is not None
        assert (rt.last_exit["code"], rt.last_exit["signal"]) == (0, None)
        assert ctx.commands == [("graceful", {"PROCLER_PROCESS_NAME": "db"}, 3.0)]
        assert ("db", "stopping", "stopping", "stop command: exit 0: done") in host.events
        assert clock.sleeps == []  # the run's end woke the wait at once

    asyncio.run(scenario())


def test_a_stop_command_that_does_not_end_the_run_is_followed_by_stop_signal() -> None:
    async def scenario() -> None:
        rt, ctx, _, clock = make(StopCommand("useless"))
        await rt.start()
        started = clock.now
        await rt.stop()
        assert ctx.commands[0][2] == 7.0  # without its own timeout: stop_timeout
        assert clock.now - started == 7.0  # waited its timeout for the run to end
        assert ctx.signals == [(100, 15)]
        assert rt.last_exit is not None and rt.last_exit["signal"] == 15

    asyncio.run(scenario())


def test_a_kill_runs_no_stop_command() -> None:
    """`stop --kill` is SIGKILL at once: the stop_command (which could take its whole
    timeout) is not run."""

    async def scenario() -> None:
        rt, ctx, _, clock = make(StopCommand("useless"))
        await rt.start()
        await rt.stop(kill=True)
        assert ctx.commands == []
        assert ctx.signals == [(100, 9)]
        assert clock.sleeps == []
        assert rt.status == states.STOPPED

    asyncio.run(scenario())
