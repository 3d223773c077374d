"""Groups in process, over the fakes: `group start` in dependency order (or, with no
depends_on, in the order the group lists, as Procler 0.3.2 did), `group stop`, `group
status`, `group list` and `wait --group`, with the exact rows and the state after."""

from __future__ import annotations

from pathlib import Path

import pytest
from procler_testkit.fakes import FakeClock
from procler_testkit.in_process import Faked, faked
from procler_testkit.scripted import ScriptedContext

from procler.contexts.base import ExitInfo
from procler.errors import GroupNotFound

CHECK = "interval: 100ms, timeout: 1s, retries: 2, start_period: 10s"
BACKEND = f"""version: 1
processes:
  db:
    command: db
    healthcheck: {{exec: db-ready, {CHECK}}}
  api:
    command: api
    healthcheck: {{exec: api-ready, {CHECK}}}
    depends_on: [{{name: db, condition: healthy}}]
  worker:
    command: worker
    depends_on: [api]
groups:
  backend: {{processes: [worker, api], description: the backend}}
"""


def test_groups_start_stop_status_list_and_wait(tmp_path: Path) -> None:
    async def scenario(f: Faked) -> None:
        assert await f.commands.group_list({}) == {
            "groups": [
                {"name": "backend", "description": "the backend", "processes": ["worker", "api"]}
            ]
        }
        started = await f.commands.group_start({"name": "backend"})
        assert started["group"] == "backend"
        assert [(s["name"], s["status"]) for s in started["processes"]] == [
            ("db", "healthy"),
            ("api", "healthy"),
            ("worker", "running"),
        ]
        # several --for healthy: ready (worker has no check: ready once up for 1 s)
        met = await f.commands.wait({"group": "backend", "for": "healthy", "timeout": 30.0})
        assert (met["group"], met["condition"], met["left_alone"]) == ("backend", "healthy", [])
        assert [(s["name"], s["status"], s["condition_met"]) for s in met["processes"]] == [
            ("worker", "running", True),
            ("api", "healthy", True),
        ]
        again = await f.commands.group_start({"name": "backend"})  # nothing else is touched
        assert [(s["name"], s["already_running"]) for s in again["processes"]] == [
            ("api", True),
            ("worker", True),
        ]
        assert len(f.context.started) == 3
        stopped = await f.commands.group_stop({"name": "backend"})
        assert [(s["name"], s["status"]) for s in stopped["processes"]] == [
            ("worker", "stopped"),
            ("api", "stopped"),
        ]
        status = await f.commands.group_status({"name": "backend"})
        assert [(s["name"], s["status"]) for s in status["processes"]] == [
            ("worker", "stopped"),
            ("api", "stopped"),
        ]
        assert f.statuses() == {"db": "healthy", "api": "stopped", "worker": "stopped"}
        with pytest.raises(GroupNotFound) as caught:
            await f.commands.group_start({"name": "frontend"})
        assert (caught.value.code, caught.value.exit_code) == ("GROUP_NOT_FOUND", 2)
        assert len(f.context.started) == 3

    faked(tmp_path, BACKEND, scenario)


# defined in the reverse order of the list: the start order comes from the list
LISTED = """processes:
  api:
    command: api
  migrate:
    command: migrate
    restart: "no"
  db:
    command: db
groups:
  backend:
    processes: [db, migrate, api]
"""


def test_a_group_without_depends_on_starts_in_the_order_it_lists(tmp_path: Path) -> None:
    clock = FakeClock()
    context = ScriptedContext(clock=clock, runs={"migrate": [ExitInfo(0)]})

    async def scenario(f: Faked) -> None:
        started = await f.commands.group_start({"name": "backend"})
        # started in the list's order; the answer's rows in the config's
        assert context.names == ["db", "migrate", "api"]
        assert [(r["name"], r["status"]) for r in started["processes"]] == [
            ("api", "running"),
            ("migrate", "exited"),
            ("db", "running"),
        ]
        rows = (await f.commands.status({}))["processes"]
        assert [(r["name"], r["status"], r["restarts"]) for r in rows] == [
            ("api", "running", 0),
            ("migrate", "exited", 0),
            ("db", "running", 0),
        ]

    faked(tmp_path, LISTED, scenario, context, clock)
