"""`history NAME` answered by a supervisor in process, over the fakes: the exits and
transitions of a process that exited 3, was restarted after its backoff, then restarted by
request, newest first and bounded by --limit; the health moves of a probed process. Exact
rows, durations in fake time."""

from __future__ import annotations

from pathlib import Path

import pytest
from procler_testkit.fakes import FakeClock
from procler_testkit.in_process import Faked, faked
from procler_testkit.rows import exits, moves, newest_first
from procler_testkit.scripted_context import ExitsAfter, ScriptedContext

from procler.contexts.base import ExitInfo
from procler.errors import ProcessNotFound

HISTORY = """version: 1
processes:
  flaky:
    command: flaky
    restart: {policy: on-failure, backoff: {initial: 0.1s}}
  probed:
    command: probed
    healthcheck: {test: "test -e ok", interval: 0.2s, retries: 1}
"""


def test_exits_and_transitions_of_a_process_that_exited_3_then_was_restarted(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    # its first run exits 3 after 0.5 s; the next ones run until stopped
    context = ScriptedContext(clock, runs={"flaky": [ExitsAfter(0.5, ExitInfo(3))]})

    async def scenario(f: Faked) -> None:
        assert await f.commands.history({"name": "flaky"}) == {
            "name": "flaky",
            "exits": [],
            "health": [],
            "transitions": [],
        }
        await f.commands.start({"name": "flaky"})
        rt = f.rt("flaky")
        await f.until(lambda: (rt.run, rt.status) == (2, "running"))
        await f.commands.restart({"name": "flaky"})
        got = await f.commands.history({"name": "flaky"})
        assert exits(got["exits"]) == [
            (2, None, 15, "restart requested"),
            (1, 3, None, "exit code 3; restart 1/5 in 0.1s"),
        ]
        first = got["exits"][1]
        assert (first["started_at"] < first["ended_at"], first["duration_seconds"]) == (True, 0.5)
        assert moves(got["transitions"]) == [
            (3, "starting", "running", "started"),
            (3, "stopped", "starting", "restart requested"),
            (2, "stopping", "stopped", "restart requested"),
            (2, "running", "stopping", "restart requested"),
            (2, "starting", "running", "started"),
            (2, "backoff", "starting", "restart 1 after backoff"),
            (1, "running", "backoff", "exit code 3; restart 1/5 in 0.1s"),
            (1, "starting", "running", "started"),
            (1, "stopped", "starting", "start requested"),
        ]
        assert newest_first([t["at"] for t in got["transitions"]])
        assert got["health"] == []
        limited = await f.commands.history({"name": "flaky", "limit": 2})
        assert (exits(limited["exits"]), moves(limited["transitions"])) == (
            exits(got["exits"]),
            moves(got["transitions"][:2]),
        )
        with pytest.raises(ProcessNotFound) as caught:
            await f.commands.history({"name": "nope"})
        assert (caught.value.code, caught.value.exit_code) == ("PROCESS_NOT_FOUND", 2)

    faked(tmp_path, HISTORY, scenario, context, clock)


def test_health_history_healthy_then_unhealthy(tmp_path: Path) -> None:
    clock = FakeClock()
    ok = {"probed": True}  # the file its check tests for
    context = ScriptedContext(clock, probe=lambda name, command, env: ok[name])

    async def scenario(f: Faked) -> None:
        await f.commands.start({"name": "probed"})
        ok["probed"] = False
        await f.commands.wait({"name": "probed", "for": "unhealthy", "timeout": 20.0})
        got = await f.commands.history({"name": "probed"})
        assert (moves(got["health"]), got["exits"]) == (
            [
                (1, "healthy", "unhealthy", "health check failed 1 times: exit 1: down"),
                (1, "starting", "healthy", "health check passed: exit 0: ok"),
                (1, "stopped", "starting", "run started"),
            ],
            [],
        )
        assert newest_first([h["at"] for h in got["health"]])
        assert moves(got["transitions"])[0] == (
            1,
            "healthy",
            "unhealthy",
            "health check failed 1 times: exit 1: down",
        )

    faked(tmp_path, HISTORY, scenario, context, clock)
