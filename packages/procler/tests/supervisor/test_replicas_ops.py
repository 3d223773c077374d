"""Replicas in process, over the fakes: instances named NAME-i, each given its own port
(PROCLER_PORT) and index (PROCLER_REPLICA), selected by the process's name or their own,
scaled up and down (only what is added or dropped is touched), and depended on as every
instance or `min` of them. Exact answers and the rows after them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from procler_testkit.fakes import FakeClock
from procler_testkit.in_process import Faked, faked
from procler_testkit.scripted import ScriptedContext

from procler.errors import DependencyFailed, NotReplicated

BASE, STEP = 41000, 7
CHECK = "interval: 100ms, timeout: 1s, retries: 1, start_period: 10s"
WEB = f"""version: 1
processes:
  web:
    command: serve
    replicas: 2
    port_base: {BASE}
    port_step: {STEP}
    healthcheck: {{exec: web-up, {CHECK}}}
  solo:
    command: solo
"""


def pids(data: dict[str, Any]) -> dict[str, int]:
    return {i["name"]: i["pid"] for i in data["instances"]}


def test_replicas_are_named_ported_scaled_up_and_down(tmp_path: Path) -> None:
    clock = FakeClock()
    context = ScriptedContext(clock=clock)

    def ports() -> dict[str, tuple[str, str]]:
        """Each instance's latest run: its PROCLER_REPLICA and PROCLER_PORT."""
        return {s.name: (s.env["PROCLER_REPLICA"], s.env["PROCLER_PORT"]) for s in context.starts}

    async def scenario(f: Faked) -> None:
        started = await f.commands.start({"name": "web"})
        assert (started["name"], started["status"], started["replicas"]) == ("web", "healthy", 2)
        assert (started["counts"], pids(started)) == (
            {"healthy": 2},
            {"web-0": 100, "web-1": 101},
        )
        assert ports() == {"web-0": ("0", str(BASE)), "web-1": ("1", str(BASE + STEP))}
        one = await f.commands.restart({"name": "web-1"})
        assert (one["name"], one["status"], one["run"], one["pid"]) == ("web-1", "healthy", 2, 102)
        # the instance's port survives its restart; the other instance is untouched
        assert (context.last("web-1").env["PROCLER_PORT"], context.names) == (
            str(BASE + STEP),
            ["web-0", "web-1", "web-1"],
        )
        assert pids(await f.commands.status({"name": "web"})) == {"web-0": 100, "web-1": 102}

        up = await f.commands.scale({"name": "web", "count": 3})
        assert (up["added"], up["removed"], up["previous"], up["replicas"]) == (["web-2"], [], 2, 3)
        assert [i["status"] for i in up["instances"]] == ["healthy", "healthy", "healthy"]
        assert pids(up) == {"web-0": 100, "web-1": 102, "web-2": 103}
        assert ports()["web-2"] == ("2", str(BASE + 2 * STEP))
        again = await f.commands.scale({"name": "web", "count": 3})
        assert (again["added"], again["removed"], pids(again)) == ([], [], pids(up))
        assert len(context.starts) == 4

        down = await f.commands.scale({"name": "web", "count": 1})
        assert (down["added"], down["removed"], pids(down)) == (
            [],
            ["web-1", "web-2"],
            {"web-0": 100},
        )
        assert sorted(context.signals) == [(101, 15), (102, 15), (103, 15)]  # restart, scale
        rows = (await f.commands.status({}))["processes"]
        assert [(r["name"], r["status"]) for r in rows] == [
            ("web-0", "healthy"),
            ("solo", "stopped"),
        ]
        with pytest.raises(NotReplicated) as caught:
            await f.commands.scale({"name": "solo", "count": 2})
        assert (caught.value.code, caught.value.exit_code) == ("NOT_REPLICATED", 2)
        stopped = await f.commands.stop({"name": "web"})
        assert (stopped["status"], stopped["replicas"]) == ("stopped", 1)
        assert f.statuses() == {"web-0": "stopped", "solo": "stopped"}

    faked(tmp_path, WEB, scenario, context, clock)


WORKERS = """version: 1
processes:
  worker:
    command: work
    replicas: 2
    healthcheck: {exec: "test ${PROCLER_REPLICA} = 0", interval: 100ms, timeout: 1s, retries: 1}
  some:
    command: some
    depends_on: [{name: worker, condition: healthy, min: 1}]
  every:
    command: every
    depends_on: [{name: worker, condition: healthy}]
"""


def test_depends_on_every_instance_or_at_least_min(tmp_path: Path) -> None:
    clock = FakeClock()
    # only instance 0 passes its check (what `test ${PROCLER_REPLICA} = 0` would say)
    context = ScriptedContext(clock=clock, probe=lambda name, command, env: name == "worker-0")

    async def scenario(f: Faked) -> None:
        some = await f.commands.start({"name": "some"})
        assert (some["name"], some["status"]) == ("some", "running")
        assert [(d["name"], d["status"]) for d in some["dependencies"]] == [
            ("worker-0", "healthy"),
            ("worker-1", "unhealthy"),
        ]
        with pytest.raises(DependencyFailed) as caught:
            await f.commands.start({"name": "every"})
        data = caught.value.data
        assert data is not None
        assert (caught.value.exit_code, data["waiting"], data["blocking"]["name"]) == (
            1,
            "every",
            "worker-1",
        )
        assert f.statuses() == {
            "worker-0": "healthy",
            "worker-1": "unhealthy",
            "some": "running",
            "every": "stopped",
        }

    faked(tmp_path, WORKERS, scenario, context, clock)
