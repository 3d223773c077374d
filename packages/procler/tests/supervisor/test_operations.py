"""The Operations in process, over the fakes of the OS seam: processes that end when the
test says (FakeContext), time that moves only when every task waits (FakeClock). Start,
stop, wait, the restart policy, dependencies, groups, readiness and recipes, with exact
answers and no sleeping: the tier that carries behaviour (tests/integration runs the real
CLI against real processes)."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path

import pytest
from procler_testkit.fakes import FakeContext
from procler_testkit.in_process import Faked, faked

from procler.contexts.base import ExitInfo
from procler.errors import (
    ConditionImpossible,
    DependencyFailed,
    RecipeFailed,
    StartFailed,
    Timeout,
)
from procler.supervisor.recipes.engine import ActiveRun, RecipeEngine
from procler.supervisor.recipes.run_record import new_run
from procler.supervisor.recipes.runner import RunControl

CHAIN = """version: 1
processes:
  db:
    command: db
  api:
    command: api
    depends_on: [db]
  web:
    command: web
    depends_on: [api]
  solo:
    command: solo
groups:
  front: {processes: [web, api], stop_order: [api]}
"""
TERM = 15


def names(rows: list[dict[str, object]], *keys: str) -> list[tuple[object, ...]]:
    return [tuple(row.get(k) for k in ("name", *keys)) for row in rows]


def test_start_brings_up_what_a_process_depends_on_first_and_a_repeat_is_idempotent(
    tmp_path: Path,
) -> None:
    async def scenario(f: Faked) -> None:
        rows = await f.ops.start(["web"])
        assert names(rows, "status", "run") == [
            ("db", "running", 1),
            ("api", "running", 1),
            ("web", "running", 1),
        ]
        assert [p.pid for p in f.context.started] == [100, 101, 102]
        await f.ops.stop(["db"])
        again = await f.ops.start(["web"])  # it runs: nothing else is touched
        assert names(again, "status", "already_running") == [("web", "running", True)]
        assert len(f.context.started) == 3
        assert f.ops.status_of("db") == "stopped"
        alone = await f.ops.start(["solo"], with_deps=False)
        assert names(alone, "status", "run") == [("solo", "running", 1)]

    faked(tmp_path, CHAIN, scenario)


def test_the_start_command_answers_the_target_with_its_dependencies(tmp_path: Path) -> None:
    async def scenario(f: Faked) -> None:
        answer = await f.commands.start({"name": "api"})
        assert (answer["name"], answer["status"], names(answer["dependencies"], "status")) == (
            "api",
            "running",
            [("db", "running")],
        )
        assert f.statuses() == {
            "db": "running",
            "api": "running",
            "web": "stopped",
            "solo": "stopped",
        }

    faked(tmp_path, CHAIN, scenario)


def test_stop_with_dependents_stops_them_first_and_leaves_the_rest(tmp_path: Path) -> None:
    async def scenario(f: Faked) -> None:
        await f.ops.start(["web", "solo"])
        pids = {name: rt.proc.pid for name, rt in f.sup.runtimes.items() if rt.proc}
        stopped = await f.ops.stop(["db"], with_dependents=True)
        assert names(stopped, "status", "already_stopped") == [
            ("web", "stopped", False),
            ("api", "stopped", False),
            ("db", "stopped", False),
        ]
        assert f.context.signals == [(pids["web"], TERM), (pids["api"], TERM), (pids["db"], TERM)]
        assert (f.rt("solo").status, f.rt("db").desired) == ("running", "stopped")
        again = await f.ops.stop(["db"])
        assert names(again, "status", "already_stopped") == [("db", "stopped", True)]

    faked(tmp_path, CHAIN, scenario)


def test_a_group_stops_its_stop_order_first_then_the_rest_dependents_first(
    tmp_path: Path,
) -> None:
    async def scenario(f: Faked) -> None:
        started = await f.ops.start_group("front")
        assert names(started, "status") == [
            ("db", "running"),
            ("api", "running"),
            ("web", "running"),
        ]
        stopped = await f.ops.stop_group("front")
        assert names(stopped, "status") == [("api", "stopped"), ("web", "stopped")]
        assert f.context.signals == [(101, TERM), (102, TERM)]
        assert f.rt("db").status == "running"

    faked(tmp_path, CHAIN, scenario)


FLAKY = """version: 1
processes:
  flaky:
    command: flaky
    restart: {policy: on-failure, max_restarts: 2, backoff: {initial: 1s, max: 4s}}
"""


def test_a_process_that_keeps_failing_is_restarted_with_backoff_until_its_budget_ends(
    tmp_path: Path,
) -> None:
    async def scenario(f: Faked) -> None:
        await f.ops.start(["flaky"])
        rt = f.rt("flaky")
        ended_at = []
        for run in (1, 2, 3):
            await f.until(lambda: rt.run == run and rt.status == "running")  # noqa: B023
            ended_at.append(f.clock.now)
            f.context.started[-1].end(ExitInfo(1, None))
        await f.until(lambda: rt.status == "failed")
        assert (rt.run, rt.restarts, rt.last_exit) == (
            3,
            2,
            {
                "code": 1,
                "signal": None,
                "at": rt.last_exit["at"] if rt.last_exit else None,
                "reason": "exit code 1; restart limit reached (2)",
            },
        )
        exits = f.ops.history("flaky", 10)["exits"]
        assert [(e["run"], e["exit_code"], e["reason"]) for e in exits] == [
            (3, 1, "exit code 1; restart limit reached (2)"),
            (2, 1, "exit code 1; restart 2/2 in 2s"),
            (1, 1, "exit code 1; restart 1/2 in 1s"),
        ]
        # each restart waited its backoff (1 s, then 2 s) plus the next start's grace
        assert [round(b - a, 2) for a, b in itertools.pairwise(ended_at)] == [
            1.15,
            2.15,
        ]

    faked(tmp_path, FLAKY, scenario)


def test_a_process_that_dies_during_its_start_fails_the_start_and_is_not_restarted(
    tmp_path: Path,
) -> None:
    async def scenario(f: Faked) -> None:
        with pytest.raises(StartFailed) as caught:
            await f.ops.start(["flaky"])
        assert caught.value.message == "flaky failed during start: exit code 3 during start"
        assert caught.value.data is not None
        assert (caught.value.data["status"], caught.value.data["stderr"]) == (
            "failed",
            ["boom from 100"],
        )
        assert (f.rt("flaky").status, len(f.context.started)) == ("failed", 1)

    faked(tmp_path, FLAKY, scenario, FakeContext([ExitInfo(3, None)]))


def test_a_dependency_that_cannot_start_blocks_its_dependents_with_dependency_failed(
    tmp_path: Path,
) -> None:
    async def scenario(f: Faked) -> None:
        with pytest.raises(DependencyFailed) as caught:
            await f.ops.start(["web"])
        assert caught.value.message == (
            "cannot start api: db could not start: db failed during start: exit code 2 during start"
        )
        data = caught.value.data
        assert data is not None
        assert (data["waiting"], data["condition"], data["blocking"]["name"]) == (
            "api",
            "started",
            "db",
        )
        assert (data["blocking"]["status"], data["started"]) == ("failed", [])
        assert f.statuses() == {
            "db": "failed",
            "api": "stopped",
            "web": "stopped",
            "solo": "stopped",
        }

    faked(tmp_path, CHAIN, scenario, FakeContext([ExitInfo(2, None)]))


SLOW = """version: 1
processes:
  slow:
    command: slow
    healthcheck: {exec: "exit 1", interval: 100ms, retries: 1, start_period: 3s}
"""


def test_health_failures_during_the_start_period_do_not_count(tmp_path: Path) -> None:
    """In fake time, so the windows are exact: the start answers after its 300 ms bound
    with the verdict still to come, a 700 ms wait for unhealthy times out with every check
    failed but none counted, and the first failure after the start period counts."""
    context = FakeContext()
    context.probe_results = [False] * 1000

    async def scenario(f: Faked) -> None:
        started = (await f.ops.start(["slow"], timeout=0.3))[0]
        assert (started["status"], started["health"]["status"]) == ("running", "starting")
        with pytest.raises(Timeout) as caught:
            await f.commands.wait({"name": "slow", "for": "unhealthy", "timeout": 0.7})
        data = caught.value.data
        assert data is not None
        assert (data["status"], data["health"]["failures"]) == ("running", 0)
        assert data["health"]["checks"] >= 2
        met = await f.commands.wait({"name": "slow", "for": "unhealthy", "timeout": 10.0})
        assert (met["status"], met["health"]["failures"], met["condition_met"]) == (
            "unhealthy",
            1,
            True,
        )
        assert f.clock.now - 1_000_000.0 >= 3.0  # not before the start period ended

    faked(tmp_path, SLOW, scenario, context)


SLEEPER = """version: 1
processes:
  api:
    command: api
"""


def test_wait_times_out_with_the_current_status(tmp_path: Path) -> None:
    async def scenario(f: Faked) -> None:
        await f.ops.start(["api"])
        with pytest.raises(Timeout) as caught:
            await f.commands.wait({"name": "api", "for": "exited", "timeout": 0.3})
        err = caught.value
        assert (err.code, err.exit_code, err.message) == (
            "TIMEOUT",
            1,
            "not exited after 0.3s: api is running",
        )
        assert err.data is not None
        assert (err.data["status"], err.data["condition"], err.data["not_met"]) == (
            "running",
            "exited",
            ["api"],
        )
        with pytest.raises(ConditionImpossible) as impossible:
            await f.ops.wait(["api"], "healthy", 0.3)
        assert impossible.value.message == "cannot be healthy: api: it has no health check"
        f.context.started[0].end(ExitInfo(0, None))
        met = await f.ops.wait(["api"], "exited", 5.0)
        assert names(met, "status", "condition_met") == [("api", "exited", True)]

    faked(tmp_path, SLEEPER, scenario)


def test_up_and_wait_answers_ready_then_ci_stops_everything(tmp_path: Path) -> None:
    async def scenario(f: Faked) -> None:
        ready = await f.ops.up_and_wait(["web", "solo"], timeout=10.0)
        assert names(ready, "status", "ready") == [
            ("db", "running", True),
            ("solo", "running", True),
            ("api", "running", True),
            ("web", "running", True),
        ]
        ci = await f.ops.ci(timeout=10.0)
        assert [row["ready"] for row in ci] == [True] * 4
        assert set(f.statuses().values()) == {"stopped"}

    faked(tmp_path, CHAIN, scenario)


RECIPES = """version: 1
processes:
  api:
    command: api
  worker:
    command: worker
    depends_on: [api]
recipes:
  deploy:
    steps:
      - stop: worker
      - id: migrate
        exec: migrate
      - start: worker
      - wait_for: {process: worker, condition: running, timeout: 5s}
  broken:
    on_error: stop
    steps:
      - id: migrate
        exec: migrate
      - start: worker
"""


def test_a_recipe_runs_its_steps_through_the_operations(tmp_path: Path) -> None:
    # api and worker run; the migration exits 0; worker starts again
    context = FakeContext([None, None, ExitInfo(0, None), None])

    async def scenario(f: Faked) -> None:
        await f.ops.start(["worker"])
        run = await RecipeEngine(f.ops).start_run("deploy", detach=False)
        assert run["status"] == "succeeded"
        assert [(s["id"], s["status"], s["output"], s["exit_code"]) for s in run["steps"]] == [
            ("stop-1", "succeeded", "worker is stopped", None),
            ("migrate", "succeeded", "boom from 102\n", 0),
            ("start-3", "succeeded", "worker is running", None),
            ("wait_for-4", "succeeded", "worker is running (running)", None),
        ]
        assert [(e["process"], e["from"], e["to"]) for e in run["steps"][0]["transitions"]] == [
            ("worker", "running", "stopping"),
            ("worker", "stopping", "stopped"),
        ]
        assert (f.rt("worker").run, f.rt("api").run) == (2, 1)

    faked(tmp_path, RECIPES, scenario, context)


def test_a_failed_step_skips_the_rest_and_the_run_fails_naming_it(tmp_path: Path) -> None:
    context = FakeContext([ExitInfo(4, None)])  # the migration exits 4

    async def scenario(f: Faked) -> None:
        with pytest.raises(RecipeFailed) as caught:
            await RecipeEngine(f.ops).start_run("broken", detach=False)
        assert caught.value.message == (
            "recipe broken failed at step migrate (exit 4): `migrate` exited with 4"
            " -- last output: boom from 100"
        )
        data = caught.value.data
        assert data is not None
        assert [(s["id"], s["status"]) for s in data["steps"]] == [
            ("migrate", "failed"),
            ("start-2", "skipped"),
        ]
        assert f.statuses() == {"api": "stopped", "worker": "stopped"}

    faked(tmp_path, RECIPES, scenario, context)


def test_a_waiting_run_waits_for_the_recorded_end_of_a_run_whose_task_is_done(
    tmp_path: Path,
) -> None:
    # A run can be done with the callback that records its end still queued (it started and
    # ended while a waiter was queued to resume). The waiter must yield to the loop until
    # the end is recorded: awaiting the done task itself never yields, and the supervisor
    # spun there with its loop blocked, deaf to every request, daemon stop included.
    context = FakeContext([None, None, ExitInfo(0, None), None])

    async def scenario(f: Faked) -> None:
        engine = RecipeEngine(f.ops)
        ended = asyncio.ensure_future(asyncio.sleep(0))
        await ended
        old = new_run("deploy-old", f.ops.config().recipes["deploy"], 0.0)
        engine.active["deploy"] = ActiveRun("deploy-old", ended, RunControl(old))
        waiter = asyncio.ensure_future(engine.start_run("deploy", detach=True, wait=True))
        for _ in range(5):
            await asyncio.sleep(0)
        assert (waiter.done(), engine.active["deploy"].run_id) == (False, "deploy-old")
        engine._finished("deploy", "deploy-old")
        answer = await waiter
        assert (answer["recipe"], answer["status"], answer["run_id"] != "deploy-old") == (
            "deploy",
            "running",
            True,
        )

    faked(tmp_path, RECIPES, scenario, context)
