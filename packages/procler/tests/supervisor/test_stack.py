"""The stack commands in process, over the fakes: `up` (idempotent for a completed
one-shot; `--rerun`), `up --wait` (ready, or the process that cannot get ready, bounded by
one timeout), `ci`, `why` of a stopped and a failed process, and a stack with a schedule.
Exact answers and the rows after them, in fake time."""

from __future__ import annotations

from pathlib import Path

import pytest
from procler_testkit.fakes import FakeClock
from procler_testkit.in_process import Faked, faked
from procler_testkit.rows import rows_of
from procler_testkit.scripted import ExitsAfter, ScriptedContext

from procler.contexts.base import ExitInfo
from procler.errors import ConditionImpossible, Timeout

READY_STACK = """version: 1
processes:
  db:
    command: db
    healthcheck: {test: db-ready, interval: 1s}
  migrate:
    command: migrate
    restart: "no"
    depends_on: [{name: db, condition: healthy}]
  api:
    command: api
    depends_on: [{name: migrate, condition: completed_successfully}]
"""
BROKEN_STACK = """version: 1
processes:
  db:
    command: db
  worker:
    command: worker
    restart: "no"
    depends_on: [db]
"""


def migrates(clock: FakeClock) -> ScriptedContext:
    return ScriptedContext(clock=clock, runs={"migrate": [ExitInfo(0)] * 3})


def breaks(clock: FakeClock) -> ScriptedContext:
    return ScriptedContext(
        clock=clock,
        runs={"worker": [ExitsAfter(0.5, ExitInfo(3))]},
        stderr={"worker": ["no queue configured"]},
    )


def test_up_wait_answers_once_the_stack_is_ready(tmp_path: Path) -> None:
    clock = FakeClock()

    async def scenario(f: Faked) -> None:
        data = await f.commands.up({"wait": True, "timeout": 30.0})
        assert data["ready"] is True
        assert rows_of(data, "status", "ready") == [
            ("db", "healthy", True),
            ("migrate", "exited", True),
            ("api", "running", True),
        ]
        assert f.statuses() == {"db": "healthy", "migrate": "exited", "api": "running"}

    faked(tmp_path, READY_STACK, scenario, migrates(clock), clock)


def test_up_wait_names_the_process_that_cannot_get_ready(tmp_path: Path) -> None:
    clock = FakeClock()

    async def scenario(f: Faked) -> None:
        with pytest.raises(ConditionImpossible) as caught:
            await f.commands.up({"wait": True, "timeout": 30.0})
        err = caught.value
        assert (err.code, err.exit_code, err.message) == (
            "CONDITION_IMPOSSIBLE",
            1,
            "worker is failed, not up for 1s, completed, or scheduled: it failed",
        )
        assert err.data is not None
        [worker] = err.data["not_ready"]
        assert (worker["name"], worker["status"], worker["stderr"]) == (
            "worker",
            "failed",
            ["no queue configured"],
        )
        assert worker["last_exit"]["code"] == 3
        assert f.statuses() == {"db": "running", "worker": "failed"}

    faked(tmp_path, BROKEN_STACK, scenario, breaks(clock), clock)


def test_ci_of_a_ready_stack_stops_everything(tmp_path: Path) -> None:
    clock = FakeClock()

    async def scenario(f: Faked) -> None:
        answer = await f.commands.ci({"timeout": 30.0})
        assert (answer["ready"], answer["stopped"]) == (True, True)
        assert f.statuses() == {"db": "stopped", "migrate": "exited", "api": "stopped"}

    faked(tmp_path, READY_STACK, scenario, migrates(clock), clock)


def test_ci_of_a_broken_stack_fails_and_stops_everything(tmp_path: Path) -> None:
    clock = FakeClock()

    async def scenario(f: Faked) -> None:
        with pytest.raises(ConditionImpossible) as caught:
            await f.commands.ci({"timeout": 30.0})
        assert caught.value.data is not None
        assert (caught.value.code, caught.value.data["stopped"]) == ("CONDITION_IMPOSSIBLE", True)
        assert f.statuses() == {"db": "stopped", "worker": "failed"}

    faked(tmp_path, BROKEN_STACK, scenario, breaks(clock), clock)


def test_why_explains_a_stopped_and_a_failed_process(tmp_path: Path) -> None:
    clock = FakeClock()

    async def scenario(f: Faked) -> None:
        data = await f.commands.why({"name": "worker"})
        assert (
            data["why"]
            == "worker is stopped because nothing asked it to run; `procler start worker`"
        )
        assert data["dependencies"] == [
            {"name": "db", "condition": "started", "status": "stopped", "holds": False}
        ]
        assert (data["waiting_for"], data["desired"]) == (["db started"], "stopped")
        await f.commands.start({"name": "worker"})
        await f.commands.wait({"name": "worker", "for": "failed", "timeout": 10.0})
        data = await f.commands.why({"name": "worker"})
        assert data["why"] == (
            "worker failed: exit code 3; nothing restarts it until it is started again"
        )
        assert (data["stderr"], data["dependencies"][0]["holds"]) == (["no queue configured"], True)
        assert data["restart_budget"] == {
            "policy": "no",
            "restarts": 0,
            "max_restarts": 5,
            "left": 5,
        }

    faked(tmp_path, BROKEN_STACK, scenario, breaks(clock), clock)


SCHEDULED = """version: 1
processes:
  api:
    command: api
  db:
    command: db
    healthcheck: {test: "true", interval: 1s}
  migrate:
    command: migrate
    restart: "no"
  cleanup:
    command: cleanup
    schedule: "0 0 1 1 *"
"""


def test_a_stack_with_a_schedule_is_ready_for_up_wait_ci_and_wait_all(tmp_path: Path) -> None:
    clock = FakeClock()

    async def scenario(f: Faked) -> None:
        up = await f.commands.up({"wait": True, "timeout": 30.0})
        assert rows_of(up, "status", "ready") == [
            ("api", "running", True),
            ("db", "healthy", True),
            ("migrate", "exited", True),
            ("cleanup", "scheduled", True),  # armed: ready
        ]
        waited = await f.commands.wait({"all": True, "for": "healthy", "timeout": 30.0})
        assert rows_of(waited, "condition_met") == [
            ("api", True),
            ("db", True),
            ("migrate", True),
            ("cleanup", True),
        ]
        await f.commands.down({})
        ci = await f.commands.ci({"timeout": 30.0})
        assert (ci["ready"], ci["stopped"]) == (True, True)
        assert context.names == ["api", "db", "migrate", "api", "db", "migrate"]

    context = migrates(clock)
    faked(tmp_path, SCHEDULED, scenario, context, clock)


SLOW = """version: 1
processes:
  worker:
    command: worker
    healthcheck: {test: "false", interval: 1s, start_period: 60s}
"""


def test_the_timeout_bounds_the_whole_up_wait(tmp_path: Path) -> None:
    # never healthy, and not unhealthy either within its start period: the start's own
    # wait for the check and the readiness wait once took the timeout each
    clock = FakeClock()
    context = ScriptedContext(clock=clock, probe=lambda name, command, env: False)

    async def scenario(f: Faked) -> None:
        began = clock.now
        with pytest.raises(Timeout) as caught:
            await f.commands.up({"wait": True, "timeout": 4.0})
        assert caught.value.data is not None
        assert (caught.value.code, caught.value.data["not_ready"][0]["why"]) == (
            "TIMEOUT",
            "not healthy, completed, or scheduled after 4s",
        )
        assert clock.now - began == 4.0
        assert f.statuses() == {"worker": "running"}

    faked(tmp_path, SLOW, scenario, context, clock)


STACK = """version: 1
processes:
  migrate:
    command: migrate
  api:
    command: api
    depends_on: [{name: migrate, condition: completed_successfully}]
"""


def test_up_does_not_rerun_a_completed_one_shot(tmp_path: Path) -> None:
    clock = FakeClock()
    config = tmp_path / "proj" / ".procler" / "config.yaml"

    async def scenario(f: Faked) -> None:
        assert rows_of(await f.commands.up({}), "status", "run") == [
            ("migrate", "exited", 1),
            ("api", "running", 1),
        ]
        again = await f.commands.up({})
        assert rows_of(again, "status", "run", "already_completed") == [
            ("migrate", "exited", 1, True),
            ("api", "running", 1, None),
        ]
        assert rows_of(await f.commands.up({"rerun": True}), "status", "run") == [
            ("migrate", "exited", 2),
            ("api", "running", 1),
        ]
        config.write_text(STACK.replace("command: migrate", "command: migrate --again"))
        assert rows_of(await f.commands.up({}), "status", "run") == [
            ("migrate", "exited", 3),
            ("api", "running", 1),
        ]
        assert context.names == ["migrate", "api", "migrate", "migrate"]

    context = migrates(clock)
    faked(tmp_path, STACK, scenario, context, clock)
