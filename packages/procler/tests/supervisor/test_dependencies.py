"""Dependencies in process, over the fakes: the order a chain starts in (after each link is
healthy, independent branches side by side), what blocks a dependent and why, what a stop
leaves running, how dependents are told of a dependency down (`dependency_down`, `why`) and
restarted when it comes back. Exact answers and the rows after them; no sleeping."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from procler_testkit.fakes import FakeClock
from procler_testkit.in_process import Faked, faked
from procler_testkit.rows import rows_of
from procler_testkit.scripted import ExitsAfter, ScriptedContext

from procler.contexts.base import ExitInfo
from procler.errors import DependencyFailed

T0 = 1_000_000.0  # the fake clock's start


async def status_rows(f: Faked, *keys: str) -> list[tuple[Any, ...]]:
    return rows_of(await f.commands.status({}), *keys)


CHAIN = """version: 1
processes:
  redis:
    command: redis
  api:
    command: api
    depends_on: [redis]
  nginx:
    command: nginx
    depends_on: [api]
"""


def test_a_dependency_down_further_down_the_chain_is_named_with_its_path(
    tmp_path: Path,
) -> None:
    async def scenario(f: Faked) -> None:
        await f.commands.up({})
        stopped = await f.commands.stop({"name": "redis"})
        assert (stopped["status"], stopped["dependents_running"]) == ("stopped", ["api", "nginx"])
        # only redis was stopped
        assert await status_rows(f, "status", "dependency_down", "dependency_path", "why") == [
            ("redis", "stopped", None, None, None),
            (
                "api",
                "running",
                "redis",
                ["api", "redis"],
                "redis is stopped (stop requested); api needs it started",
            ),
            (
                "nginx",
                "running",
                "redis",
                ["nginx", "api", "redis"],
                "redis is stopped (stop requested); api needs it started (nginx -> api -> redis)",
            ),
        ]
        why = await f.commands.why({"name": "nginx"})
        assert why["dependency_down"] == {"name": "redis", "path": ["nginx", "api", "redis"]}
        assert why["why"] == (
            "nginx is running and its dependency redis is down: redis is stopped (stop "
            "requested); api needs it started (nginx -> api -> redis)"
        )
        await f.commands.start({"name": "redis"})
        assert await status_rows(f, "status", "dependency_down", "run") == [
            ("redis", "running", None, 2),
            ("api", "running", None, 1),
            ("nginx", "running", None, 1),
        ]

    faked(tmp_path, CHAIN, scenario)


TOLD = """version: 1
processes:
  db:
    command: db
  api:
    command: api
    depends_on: [{name: db, restart: true}]
  worker:
    command: worker
    depends_on: [db]
"""


def test_dependents_are_told_and_restarted_when_the_dependency_comes_back(
    tmp_path: Path,
) -> None:
    async def scenario(f: Faked) -> None:
        await f.commands.up({})
        keys = ("status", "run", "dependency_down", "why")
        assert await status_rows(f, *keys) == [
            ("db", "running", 1, None, None),
            ("api", "running", 1, None, None),
            ("worker", "running", 1, None, None),
        ]
        await f.commands.stop({"name": "db"})
        why = "db is stopped (stop requested)"
        assert await status_rows(f, *keys) == [
            ("db", "stopped", 1, None, None),
            ("api", "running", 1, "db", f"{why}; api needs it started"),
            ("worker", "running", 1, "db", f"{why}; worker needs it started"),
        ]
        await f.commands.start({"name": "db"})
        api = f.rt("api")
        await f.until(lambda: (api.status, api.run) == ("running", 2))
        assert await status_rows(f, *keys) == [
            ("db", "running", 2, None, None),
            ("api", "running", 2, None, None),
            ("worker", "running", 1, None, None),
        ]
        last = (await f.commands.status({"name": "api"}))["last_exit"]
        assert last["reason"] == "restarted: its dependency db came back"

    faked(tmp_path, TOLD, scenario)


CHECK = "interval: 100ms, timeout: 1s, retries: 2, start_period: 10s"
HEALTHY_CHAIN = f"""version: 1
processes:
  web:
    command: web
    healthcheck: {{exec: web-ready, {CHECK}}}
    depends_on: [{{name: api, condition: healthy}}]
  api:
    command: api
    healthcheck: {{exec: api-ready, {CHECK}}}
    depends_on: [{{name: db, condition: healthy}}]
  db:
    command: db
    healthcheck: {{exec: db-ready, {CHECK}}}
"""


def test_a_three_level_chain_starts_each_link_once_the_one_below_is_healthy(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    context = ScriptedContext(clock=clock)
    context.ready_after({"db": 0.3, "api": 0.2, "web": 0.2})

    async def scenario(f: Faked) -> None:
        started = await f.commands.start({"name": "web"})
        assert (started["name"], started["status"]) == ("web", "healthy")
        assert [(d["name"], d["status"]) for d in started["dependencies"]] == [
            ("db", "healthy"),
            ("api", "healthy"),
        ]
        assert context.names == ["db", "api", "web"]
        starts = {s.name: round(s.at - T0, 3) for s in context.starts}
        # each starts at the first passing probe of the one below: 0.3 s, then 0.2 s later
        assert starts == {"db": 0.0, "api": 0.3, "web": 0.5}
        rows = {r["name"]: r for r in (await f.commands.status({}))["processes"]}
        # api started the instant db turned healthy, web the instant api did
        assert (rows["api"]["started_at"], rows["web"]["started_at"]) == (
            rows["db"]["health"]["since"],
            rows["api"]["health"]["since"],
        )

    faked(tmp_path, HEALTHY_CHAIN, scenario, context, clock)


BRANCHES = f"""version: 1
processes:
  a:
    command: a
    healthcheck: {{exec: a-ready, {CHECK}}}
  b:
    command: b
    healthcheck: {{exec: b-ready, {CHECK}}}
  top:
    command: top
    depends_on: [{{name: a, condition: healthy}}, {{name: b, condition: healthy}}]
"""


def test_independent_branches_start_side_by_side(tmp_path: Path) -> None:
    clock = FakeClock()
    context = ScriptedContext(clock=clock)
    context.ready_after({"a": 0.5, "b": 0.5})

    async def scenario(f: Faked) -> None:
        started = await f.commands.start({"name": "top"})
        assert (started["status"], [d["name"] for d in started["dependencies"]]) == (
            "running",
            ["a", "b"],
        )
        # b started before a was healthy: the branches did not wait for each other
        assert {s.name: round(s.at - T0, 3) for s in context.starts} == {
            "a": 0.0,
            "b": 0.0,
            "top": 0.5,
        }

    faked(tmp_path, BRANCHES, scenario, context, clock)


BLOCKED = """version: 1
processes:
  migrate:
    command: migrate
    restart: {policy: "no"}
  api:
    command: api
    depends_on: [{name: migrate, condition: completed_successfully}]
  cache:
    command: cache
  web:
    command: web
    depends_on: [cache, api]
"""


def test_a_dependency_that_fails_names_the_blocking_process(tmp_path: Path) -> None:
    clock = FakeClock()
    context = ScriptedContext(
        clock=clock,
        runs={"migrate": [ExitsAfter(0.3, ExitInfo(4))]},
        stderr={"migrate": ["no database"]},
    )

    async def scenario(f: Faked) -> None:
        with pytest.raises(DependencyFailed) as caught:
            await f.commands.start({"name": "web"})
        err = caught.value
        assert (err.code, err.exit_code, err.message) == (
            "DEPENDENCY_FAILED",
            1,
            "cannot start api: migrate is failed, so it will not be completed_successfully",
        )
        data = err.data
        assert data is not None
        assert (data["waiting"], data["condition"]) == ("api", "completed_successfully")
        blocking = data["blocking"]
        assert (blocking["name"], blocking["status"], blocking["stderr"]) == (
            "migrate",
            "failed",
            ["no database"],
        )
        assert [s["name"] for s in data["started"]] == ["migrate", "cache"]
        assert f.statuses() == {
            "migrate": "failed",
            "api": "stopped",
            "cache": "running",
            "web": "stopped",
        }

    faked(tmp_path, BLOCKED, scenario, context, clock)


def test_completed_successfully_lets_the_dependent_start(tmp_path: Path) -> None:
    clock = FakeClock()
    context = ScriptedContext(clock=clock, runs={"migrate": [ExitsAfter(0.3, ExitInfo(0))]})

    async def scenario(f: Faked) -> None:
        started = await f.commands.start({"name": "api"})
        assert (started["status"], rows_of({"processes": started["dependencies"]}, "status")) == (
            "running",
            [("migrate", "exited")],
        )
        assert {s.name: round(s.at - T0, 3) for s in context.starts} == {
            "migrate": 0.0,
            "api": 0.3,
        }

    faked(tmp_path, BLOCKED, scenario, context, clock)


UP_DOWN = """version: 1
processes:
  db:
    command: db
  api:
    command: api
    depends_on: [db]
  other:
    command: other
"""


def test_stop_leaves_dependents_running_unless_asked_and_up_down_cover_the_stack(
    tmp_path: Path,
) -> None:
    async def scenario(f: Faked) -> None:
        up = await f.commands.up({})
        assert rows_of(up, "status") == [
            ("db", "running"),
            ("other", "running"),
            ("api", "running"),
        ]
        only = await f.commands.stop({"name": "db"})
        assert (only["status"], f.statuses()) == (
            "stopped",
            {"db": "stopped", "api": "running", "other": "running"},
        )
        await f.commands.start({"name": "db"})
        both = await f.commands.stop({"name": "db", "with_dependents": True})
        assert (both["name"], both["status"]) == ("db", "stopped")
        assert [(d["name"], d["status"]) for d in both["dependents"]] == [("api", "stopped")]
        assert f.statuses() == {"db": "stopped", "api": "stopped", "other": "running"}
        down = await f.commands.down({})
        # dependents first; only other was still running
        assert rows_of(down, "status", "already_stopped") == [
            ("api", "stopped", True),
            ("db", "stopped", True),
            ("other", "stopped", False),
        ]
        assert set(f.statuses().values()) == {"stopped"}

    faked(tmp_path, UP_DOWN, scenario)
