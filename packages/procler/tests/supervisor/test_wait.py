"""`wait` against real processes, in-process: the supervisor runs in the test's event loop
with its sentinel link injected, so no supervisor or sentinel process is spawned."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from procler_testkit.harness import PY
from procler_testkit.in_process import NEVER, SLEEP, Commands, supervise

from procler.errors import ConditionImpossible, StartFailed, Timeout

HEALTHY = "healthcheck: {exec: 'true', interval: 100ms}"


async def impossible(handlers: Commands, **values: Any) -> ConditionImpossible:
    with pytest.raises(ConditionImpossible) as caught:
        await handlers.wait({"for": "healthy", "timeout": NEVER, **values})
    return caught.value


def test_healthy_is_impossible_at_once_for_failed_exited_stopped_and_unchecked(
    tmp_path: Path,
) -> None:
    config = f"""version: 1
processes:
  broken:
    args: [{PY}, -c, "import sys; sys.exit(3)"]
    healthcheck: {{exec: 'false', interval: 100ms}}  # exits before it is ever healthy
  done:
    args: [{PY}, -c, "pass"]
    restart: no
    {HEALTHY}
  idle:
    args: {SLEEP}
    {HEALTHY}
  plain:
    args: {SLEEP}
"""

    async def scenario(handlers: Commands) -> None:
        with pytest.raises(StartFailed, match="broken failed during start"):
            await handlers.start({"name": "broken"})
        await handlers.start({"name": "done"})  # answers once healthy: it may not have ended
        await handlers.wait({"name": "done", "for": "exited", "timeout": NEVER})
        await handlers.start({"name": "plain"})
        for name, why, status in (
            ("broken", "it failed", "failed"),
            ("done", "it exited", "exited"),
            ("idle", "it is stopped and nothing will start it", "stopped"),
            ("plain", "it has no health check", "running"),
        ):
            err = await impossible(handlers, name=name)
            assert (err.code, err.exit_code, err.message) == (
                "CONDITION_IMPOSSIBLE",
                1,
                f"cannot be healthy: {name}: {why}",
            )
            assert err.data is not None
            assert (err.data["status"], err.data["impossible"], err.data["not_met"]) == (
                status,
                {name: why},
                [name],
            )

    lines = supervise(tmp_path, config, scenario)
    assert [line[0] for line in lines] == ["+", "-", "+", "-", "+", "-"]  # told, not spawned


# Runs until its project folder holds `fail-now`, then exits 1.
FAILS_WHEN_TOLD = (
    "import os, sys, time\\nwhile not os.path.exists('fail-now'): time.sleep(0.01)\\nsys.exit(1)"
)


def test_a_wait_ends_when_its_process_fails_on_the_way(tmp_path: Path) -> None:
    config = f"""version: 1
processes:
  flaky:
    args: [{PY}, -c, "{FAILS_WHEN_TOLD}"]
    restart: no
    healthcheck: {{exec: 'false', interval: 100ms}}
"""

    async def scenario(handlers: Commands) -> None:
        await handlers.start({"name": "flaky"})
        (tmp_path / "proj" / "fail-now").touch()  # it fails after its start, however slow
        err = await impossible(handlers, name="flaky")
        assert err.data is not None
        assert (err.data["status"], err.data["impossible"]) == ("failed", {"flaky": "it failed"})

    supervise(tmp_path, config, scenario)


def test_a_group_or_all_counts_a_finished_one_shot_as_healthy(tmp_path: Path) -> None:
    config = f"""version: 1
processes:
  migrate:
    args: [{PY}, -c, "pass"]
    restart: no
  api:
    args: {SLEEP}
    {HEALTHY}
    depends_on: [{{name: migrate, condition: completed_successfully}}]
  worker:
    args: {SLEEP}
groups:
  backend: {{processes: [migrate, api]}}
  everything: {{processes: [migrate, api, worker]}}
"""

    async def scenario(handlers: Commands) -> None:
        await handlers.start({"name": "api"})
        met = await handlers.wait({"group": "backend", "for": "healthy", "timeout": NEVER})
        assert [(p["name"], p["status"], p["condition_met"]) for p in met["processes"]] == [
            ("migrate", "exited", True),
            ("api", "healthy", True),
        ]
        assert (met["group"], met["condition"]) == ("backend", "healthy")
        err = await impossible(handlers, group="everything")
        assert err.message == "cannot be healthy: worker: it is stopped and nothing will start it"
        assert err.data is not None and err.data["not_met"] == ["worker"]
        await handlers.start({"name": "worker"})
        # several: ready as `up --wait` means it (states.ready): without a health check,
        # up for READY_AFTER
        met = await handlers.wait({"all": True, "for": "healthy", "timeout": NEVER})
        assert [(p["name"], p["status"], p["condition_met"]) for p in met["processes"]] == [
            ("migrate", "exited", True),
            ("api", "healthy", True),
            ("worker", "running", True),
        ]
        assert "group" not in met
        await handlers.stop({"name": "worker"})
        with pytest.raises(ConditionImpossible):
            await handlers.wait({"name": "migrate", "for": "healthy", "timeout": NEVER})

    supervise(tmp_path, config, scenario)


def test_a_condition_that_may_still_come_times_out(tmp_path: Path) -> None:
    config = f"""version: 1
processes:
  slow:
    args: {SLEEP}
    healthcheck: {{exec: 'false', interval: 100ms, start_period: 600s}}
"""

    async def scenario(handlers: Commands) -> None:
        # start waits (bounded) for the health verdict, which does not come either
        assert (await handlers.start({"name": "slow", "timeout": 0.3}))["status"] == "running"
        with pytest.raises(Timeout) as caught:
            await handlers.wait({"name": "slow", "for": "healthy", "timeout": 0.3})
        assert caught.value.message == "not healthy after 0.3s: slow is running"

    supervise(tmp_path, config, scenario)


def test_wait_all_answers_every_process_when_met(tmp_path: Path) -> None:
    config = f"""version: 1
processes:
  a:
    args: {SLEEP}
  b:
    args: {SLEEP}
"""

    async def scenario(handlers: Commands) -> None:
        await handlers.up({})
        met = await handlers.wait({"all": True, "for": "running", "timeout": NEVER})
        assert [(p["name"], p["condition_met"]) for p in met["processes"]] == [
            ("a", True),
            ("b", True),
        ]
        assert met["condition"] == "running"

    supervise(tmp_path, config, scenario)
