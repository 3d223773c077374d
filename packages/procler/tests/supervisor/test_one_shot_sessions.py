"""A one-shot that completed in this session is not run again by `start` (named or as a
dependency), by `up`, or by a recipe's `start` step; `rerun` runs it; a start of a running
process touches nothing else; `down` and `daemon stop` end the session, `daemon restart`
does not. In process
over the fakes: the context counts every run of migrate."""

from __future__ import annotations

from pathlib import Path

from procler_testkit.in_process import Faked, faked
from procler_testkit.scripted import ScriptedContext

from procler.contexts.base import ExitInfo

CONFIG = """
version: 1
processes:
  db:
    command: serve db
  redis:
    command: serve redis
  migrate:
    command: ./migrate
    restart: {policy: "no"}
    depends_on: [db]
  api:
    command: serve api
    depends_on: [redis, {name: migrate, condition: completed_successfully}]
recipes:
  deploy:
    steps:
      - stop: api
      - start: api
"""
EVERY = ["db", "redis", "migrate", "api"]


def migrating() -> ScriptedContext:
    """Each run of migrate completes at once."""
    return ScriptedContext(runs={"migrate": [ExitInfo(0)] * 10})


def test_a_completed_one_shot_runs_again_only_when_asked_or_in_a_new_session(
    tmp_path: Path,
) -> None:
    async def scenario(f: Faked[ScriptedContext]) -> None:
        def migrations() -> int:
            return f.context.names.count("migrate")

        await f.commands.up({})
        assert migrations() == 1
        for _ in range(2):
            assert (await f.commands.start({"name": "api"}))["already_running"] is True
        await f.commands.stop({"name": "api"})
        started = await f.commands.start({"name": "api"})  # its dependency completed
        assert started["status"] == "running"
        assert {d["name"]: d.get("already_completed") for d in started["dependencies"]} == {
            "db": None,
            "redis": None,
            "migrate": True,
        }
        assert (await f.commands.recipe_run({"name": "deploy"}))["status"] == "succeeded"
        assert migrations() == 1
        # a start of a running process touches nothing else
        await f.commands.stop({"name": "redis"})
        assert (await f.commands.start({"name": "api"}))["already_running"] is True
        assert f.statuses()["redis"] == "stopped"
        # named, too; rerun runs it
        assert (await f.commands.start({"name": "migrate"}))["already_completed"] is True
        assert migrations() == 1
        assert (await f.commands.start({"name": "migrate", "rerun": True}))["status"] == "exited"
        assert migrations() == 2
        # `down` ends the session: the next `up` runs the one-shots again
        await f.commands.down({})
        await f.commands.up({})
        assert migrations() == 3
        first, stop_start, deploy, rerun = EVERY, ["api"], ["api"], ["migrate"]
        assert f.context.names == [*first, *stop_start, *deploy, *rerun, *EVERY]

        await f.commands.daemon_restart({})

    faked(tmp_path, CONFIG, scenario, migrating())

    async def after_a_restart(
        f: Faked[ScriptedContext],
    ) -> None:  # the same session: migrate completed
        await f.commands.up({})
        assert f.context.names.count("migrate") == 0
        await f.commands.daemon_stop({})  # ends the session

    faked(tmp_path, CONFIG, after_a_restart, migrating())

    async def after_a_stop(f: Faked[ScriptedContext]) -> None:
        await f.commands.up({})
        assert f.context.names.count("migrate") == 1
        assert f.statuses() == {
            "db": "running",
            "redis": "running",
            "migrate": "exited",
            "api": "running",
        }

    faked(tmp_path, CONFIG, after_a_stop, migrating())


def test_the_dry_run_plays_the_steps_in_order_and_names_the_one_shots_it_runs(
    tmp_path: Path,
) -> None:
    async def scenario(f: Faked[ScriptedContext]) -> None:
        await f.commands.up({})
        planned = await f.commands.recipe_run({"name": "deploy", "dry_run": True})
        assert [(s["id"], s["plan"], s.get("runs_one_shots")) for s in planned["steps"]] == [
            ("stop-1", "api is running: stop will stop it", None),
            (
                "start-2",
                "db is running: start will leave it running; redis is running: start will "
                "leave it running; migrate is exited: completed; start will not run it again "
                "(--rerun); api will be stopped (after stop-1): start will start it",
                [],
            ),
        ]
        await f.commands.down({})  # a new session: migrate would run again
        planned = await f.commands.recipe_run({"name": "deploy", "dry_run": True})
        assert planned["steps"][1]["runs_one_shots"] == ["migrate"]
        assert planned["steps"][1]["plan"].endswith("start will start it (runs one-shot migrate)")
        assert (await f.commands.recipe_runs({}))["runs"] == []  # nothing ran
        assert f.statuses() == {
            "db": "stopped",
            "redis": "stopped",
            "migrate": "exited",  # its last run, which the next `up` runs again
            "api": "stopped",
        }
        assert f.context.names == EVERY

    faked(tmp_path, CONFIG, scenario, migrating())
