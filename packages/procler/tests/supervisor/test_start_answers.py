"""When start, restart and the restart policy answer, in process over the fakes: a start
answers once the health check passes (at that probe, not after a fixed window), `failed`
when the process dies before it was ever healthy; a healthy run that crashes is back at
once whatever its backoff; a run whose liveness check fails is ended and restarted. Exact
answers, the rows after them and the fake time they took."""

from __future__ import annotations

from pathlib import Path

import pytest
from procler_testkit.fakes import FakeClock
from procler_testkit.in_process import Faked, faked
from procler_testkit.scripted import ExitsAfter, ScriptedContext

from procler.contexts.base import ExitInfo
from procler.errors import StartFailed

CHECK = "interval: 100ms, timeout: 1s, retries: 3, start_period: 5s"
ANSWERS = f"""version: 1
processes:
  ready_later:
    command: serve
    healthcheck: {{exec: ready-later-up, {CHECK}}}
  dies_late:
    command: serve
    healthcheck: {{exec: dies-late-up, {CHECK}}}
"""


def test_start_and_restart_answer_healthy_at_the_first_passing_check(tmp_path: Path) -> None:
    clock = FakeClock()
    context = ScriptedContext(clock=clock)
    context.ready_after({"ready_later": 0.4})

    async def scenario(f: Faked) -> None:
        began = clock.now
        started = await f.commands.start({"name": "ready_later"})
        assert (started["status"], started["health"]["status"], started["run"]) == (
            "healthy",
            "healthy",
            1,
        )
        assert round(clock.now - began, 3) == 0.4  # the probe that passed, not a window
        began = clock.now
        restarted = await f.commands.restart({"name": "ready_later"})
        assert (restarted["status"], restarted["run"]) == ("healthy", 2)
        assert round(clock.now - began, 3) == 0.4
        assert f.statuses() == {"ready_later": "healthy", "dies_late": "stopped"}

    faked(tmp_path, ANSWERS, scenario, context, clock)


def test_a_process_dying_before_it_was_ever_healthy_is_failed(tmp_path: Path) -> None:
    clock = FakeClock()
    context = ScriptedContext(
        clock=clock,
        runs={"dies_late": [ExitsAfter(0.5, ExitInfo(3))]},
        stderr={"dies_late": ["bind: address in use"]},
        probe=lambda name, command, env: False,
    )

    async def scenario(f: Faked) -> None:
        with pytest.raises(StartFailed) as caught:
            await f.commands.start({"name": "dies_late"})
        err = caught.value
        assert (err.code, err.exit_code) == ("START_FAILED", 1)
        data = err.data
        assert data is not None
        assert (data["status"], data["exit_code"], data["restarts"]) == ("failed", 3, 0)
        assert data["stderr"] == ["bind: address in use"]
        assert data["last_exit"]["reason"] == "exit code 3 before it was healthy"
        row = await f.commands.status({"name": "dies_late"})
        assert (row["status"], row["run"], row["restarts"]) == ("failed", 1, 0)
        assert len(context.starts) == 1

    faked(tmp_path, ANSWERS, scenario, context, clock)


CRASHES = """version: 1
processes:
  api:
    command: serve
    restart: {policy: on-failure, backoff: {initial: 120s, max: 120s}}
    healthcheck: {exec: api-up, interval: 1s}
"""


def test_a_healthy_process_killed_is_back_without_waiting_its_backoff(tmp_path: Path) -> None:
    async def scenario(f: Faked) -> None:
        pid = (await f.commands.start({"name": "api"}))["pid"]
        rt = f.rt("api")
        for round_ in (1, 2, 3):
            crashed = f.clock.now
            f.context.started[-1].end(ExitInfo(None, 9))
            await f.until(lambda: rt.restarts == round_)  # noqa: B023
            back = await f.commands.wait({"name": "api", "for": "healthy", "timeout": 30.0})
            assert (back["status"], back["restarts"], back["run"]) == (
                "healthy",
                round_,
                round_ + 1,
            )
            reason = f"killed by signal 9; restart {round_}/5 at once"
            assert back["last_exit"]["reason"] == reason
            assert back["pid"] == pid + 1
            pid = back["pid"]
            # no 120 s backoff: the new run's first passing check (it probes at once)
            print("DT", f.clock.now - crashed)
            assert f.clock.now - crashed < 1.0
        assert len(f.context.started) == 4

    faked(tmp_path, CRASHES, scenario)


LIVENESS = """version: 1
processes:
  api:
    command: serve
    healthcheck: {exec: "true", interval: 200ms}
    liveness: {exec: alive, interval: 200ms, retries: 2}
    restart: {policy: on-failure, backoff: {initial: 100ms}}
"""


def test_failing_liveness_restarts_the_process_and_history_says_liveness(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    alive = {"api": True}
    context = ScriptedContext(
        clock=clock, probe=lambda name, command, env: command != "alive" or alive[name]
    )

    async def scenario(f: Faked) -> None:
        await f.commands.start({"name": "api"})
        first = await f.commands.wait({"name": "api", "for": "healthy", "timeout": 20.0})
        assert (first["liveness"]["kind"], first["health"]["kind"]) == ("exec", "exec")
        alive["api"] = False
        rt = f.rt("api")
        await f.until(lambda: rt.run == 2)
        alive["api"] = True
        now = await f.commands.wait({"name": "api", "for": "healthy", "timeout": 20.0})
        assert (now["run"], now["restarts"], now["desired"]) == (2, 1, "running")
        assert now["pid"] != first["pid"]
        assert context.signals == [(first["pid"], 15)]
        exits = (await f.commands.history({"name": "api", "limit": 10}))["exits"]
        assert [(e["run"], e["reason"], e["signal"]) for e in exits] == [(1, "liveness", 15)]
        await f.until(lambda: rt.liveness is not None and rt.liveness.status == "healthy")
        why = await f.commands.why({"name": "api"})
        assert (why["health"]["status"], why["liveness"]["status"]) == ("healthy", "healthy")
        assert why["liveness"]["failures"] == 0

    faked(tmp_path, LIVENESS, scenario, context, clock)
