"""Recipe runs in process, over the fakes: step order and records, on_error, failures
named, one run at a time, cancel, the dry run and the recipe's log, each answer checked
against what the run records say after it (state.db, read back by `recipe status`)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from procler_testkit.in_process import Faked, faked
from procler_testkit.scripted import Ran, ScriptedContext, refusal

from procler.project import recipe_log_name

CONFIG = """
version: 1
processes:
  api:
    command: serve api
  worker:
    command: serve worker
groups:
  backend:
    processes: [api, worker]
recipes:
  deploy:
    description: "Graceful deployment"
    on_error: stop
    steps:
      - stop: worker
      - stop: api
      - wait: 100ms
      - exec: "./migrate"
      - start: api
      - start: worker
  broken:
    steps:
      - start: api
      - id: migrate
        exec: "./migrate --broken"
      - start: worker
  lenient:
    on_error: continue
    steps:
      - exec: "exit 2"
      - exec: "exit 0"
        ignore_error: true
      - group_start: backend
      - wait_for: {process: worker, condition: running, timeout: 5s}
  slow:
    steps:
      - id: hold
        exec: "./hold"
"""
SCRIPT = {
    "./migrate": Ran(("migrated",)),
    "./migrate --broken": Ran(("no table",), exit_code=3),
    "exit 2": Ran(exit_code=2),
    "exit 0": Ran(),
    "./hold": Ran(hangs=True),
}


def context() -> ScriptedContext:
    return ScriptedContext(SCRIPT)


async def begun(f: Faked[ScriptedContext]) -> None:
    """Until the running step's command has started (no time passes: loop turns)."""
    while not f.context.one_offs:
        await asyncio.sleep(0)


def steps(run: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(s["id"], s["kind"], s["status"], s["exit_code"], s["output"]) for s in run["steps"]]


async def stored(f: Faked, run: dict[str, Any]) -> None:
    """The run as answered is the run as recorded."""
    assert await f.commands.recipe_status({"run_id": run["run_id"]}) == run


def test_the_deploy_recipe_runs_to_completion_with_exact_step_records(tmp_path: Path) -> None:
    async def scenario(f: Faked[ScriptedContext]) -> None:
        await f.commands.start({"all": True})
        before = len(f.clock.sleeps)
        run = await f.commands.recipe_run({"name": "deploy"})
        assert (run["recipe"], run["status"], run["error"]) == ("deploy", "succeeded", None)
        assert steps(run) == [
            ("stop-1", "stop", "succeeded", None, "worker is stopped"),
            ("stop-2", "stop", "succeeded", None, "api is stopped"),
            ("wait-3", "wait", "succeeded", None, "waited 0.1s"),
            ("exec-4", "exec", "succeeded", 0, "migrated\n"),
            ("start-5", "start", "succeeded", None, "api is running"),
            ("start-6", "start", "succeeded", None, "worker is running"),
        ]
        assert [s["idempotent"] for s in run["steps"]] == [True, True, True, False, True, True]
        assert [
            [(t["process"], t["from"], t["to"]) for t in s["transitions"]] for s in run["steps"]
        ] == [
            [("worker", "running", "stopping"), ("worker", "stopping", "stopped")],
            [("api", "running", "stopping"), ("api", "stopping", "stopped")],
            [],
            [],
            [("api", "stopped", "starting"), ("api", "starting", "running")],
            [("worker", "stopped", "starting"), ("worker", "starting", "running")],
        ]
        for step in run["steps"]:
            times = [step["started_at"], *(t["at"] for t in step["transitions"]), step["ended_at"]]
            assert times == sorted(times)
        # the wait step waited on the supervisor's clock: 0.1 s of it, within the run
        wait = run["steps"][2]
        assert (f.clock.sleeps[before:], round(wait["ended_at"] - wait["started_at"], 6)) == (
            [0.1],
            0.1,
        )
        assert f.context.commands == ["./migrate"]
        assert f.statuses() == {"api": "running", "worker": "running"}
        await stored(f, run)
        runs = (await f.commands.recipe_runs({"name": "deploy"}))["runs"]
        assert [(r["run_id"], r["status"]) for r in runs] == [(run["run_id"], "succeeded")]

    faked(tmp_path, CONFIG, scenario, context())


def test_on_error_stop_skips_the_rest_and_names_the_failed_step(tmp_path: Path) -> None:
    async def scenario(f: Faked[ScriptedContext]) -> None:
        err = await refusal(f.commands.recipe_run({"name": "broken"}))
        assert (err.code, err.exit_code) == ("RECIPE_FAILED", 1)
        assert err.message == (
            "recipe broken failed at step migrate (exit 3): `./migrate --broken` exited with 3"
            " -- last output: no table"
        )
        run = err.data
        assert run["status"] == "failed"
        assert [(s["id"], s["status"], s["exit_code"]) for s in run["steps"]] == [
            ("start-1", "succeeded", None),
            ("migrate", "failed", 3),
            ("start-3", "skipped", None),
        ]
        assert f.statuses() == {"api": "running", "worker": "stopped"}
        await stored(f, run)

    faked(tmp_path, CONFIG, scenario, context())


def test_on_error_continue_runs_every_step_and_fails_at_the_end(tmp_path: Path) -> None:
    async def scenario(f: Faked[ScriptedContext]) -> None:
        err = await refusal(f.commands.recipe_run({"name": "lenient"}))
        assert err.code == "RECIPE_FAILED"
        run = err.data
        assert [
            (s["id"], s["status"], s["exit_code"], s["ignored_error"]) for s in run["steps"]
        ] == [
            ("exec-1", "failed", 2, False),
            ("exec-2", "succeeded", 0, False),
            ("group_start-3", "succeeded", None, False),
            ("wait_for-4", "succeeded", None, False),
        ]
        assert run["steps"][2]["output"] == "api is running\nworker is running"
        assert run["steps"][3]["output"] == "worker is running (running)"
        assert run["error"] == "step exec-1 failed: `exit 2` exited with 2"
        assert f.context.commands == ["exit 2", "exit 0"]
        assert f.statuses() == {"api": "running", "worker": "running"}
        await stored(f, run)

    faked(tmp_path, CONFIG, scenario, context())


def test_one_run_of_a_recipe_at_a_time_and_cancel_stops_the_running_step(
    tmp_path: Path,
) -> None:
    async def scenario(f: Faked[ScriptedContext]) -> None:
        first = await f.commands.recipe_run({"name": "slow", "detach": True})
        assert (first["recipe"], first["status"]) == ("slow", "running")
        err = await refusal(f.commands.recipe_run({"name": "slow"}))
        assert (err.code, err.exit_code, err.data) == (
            "RECIPE_RUNNING",
            1,
            {"run_id": first["run_id"]},
        )
        assert err.message == f"recipe slow is already running (run {first['run_id']})"
        await begun(f)
        [hold] = f.context.one_offs
        run = await f.commands.recipe_cancel({"run_id": first["run_id"]})
        assert (run["status"], run["error"]) == ("cancelled", "cancelled at step hold")
        assert [(s["status"], s["error"]) for s in run["steps"]] == [
            ("cancelled", "cancelled (recipe cancel)")
        ]
        assert (hold.ended.done(), f.context.signals) == (True, [(hold.pid, 15)])
        await stored(f, run)
        err = await refusal(f.commands.recipe_cancel({"run_id": first["run_id"]}))
        assert (err.code, err.exit_code, err.message) == (
            "RUN_NOT_RUNNING",
            2,
            f"run {first['run_id']} is cancelled, not running",
        )

    faked(tmp_path, CONFIG, scenario, context())


def test_unknown_recipe_and_run_are_usage_errors(tmp_path: Path) -> None:
    async def scenario(f: Faked[ScriptedContext]) -> None:
        err = await refusal(f.commands.recipe_run({"name": "deplyo"}))
        assert (err.code, err.exit_code, err.message) == (
            "RECIPE_NOT_FOUND",
            2,
            "no recipe named 'deplyo'",
        )
        assert err.suggestion == (
            "did you mean deploy? run `procler recipe list` to see the defined recipes"
        )
        err = await refusal(f.commands.recipe_status({"run_id": "nope"}))
        assert (err.code, err.exit_code) == ("RUN_NOT_FOUND", 2)
        assert (await f.commands.recipe_runs({}))["runs"] == []

    faked(tmp_path, CONFIG, scenario, context())


def test_list_and_show(tmp_path: Path) -> None:
    async def scenario(f: Faked[ScriptedContext]) -> None:
        listed = (await f.commands.recipe_list({}))["recipes"]
        assert [(r["name"], r["steps"], r["on_error"]) for r in listed] == [
            ("deploy", 6, "stop"),
            ("broken", 3, "stop"),
            ("lenient", 4, "continue"),
            ("slow", 1, "stop"),
        ]
        shown = await f.commands.recipe_show({"name": "lenient"})
        assert shown["steps"][3] == {
            "kind": "wait_for",
            "id": "wait_for-4",
            "target": "worker",
            "seconds": 0.0,
            "condition": "running",
            "idempotent": True,
            "context": "local",
            "container": None,
            "cwd": None,
            "timeout": 5.0,
            "ignore_error": False,
            "args": (),  # [] in JSON
            "retries": 0,
            "retry_delay": 1.0,
            "when": None,
        }
        assert len(shown["definition_hash"]) == 16

    faked(tmp_path, CONFIG, scenario, context())


def test_dry_run_says_what_each_step_would_do_and_writes_nothing(tmp_path: Path) -> None:
    async def scenario(f: Faked[ScriptedContext]) -> None:
        await f.commands.start({"name": "api"})
        planned = await f.commands.recipe_run({"name": "lenient", "dry_run": True})
        assert (planned["run_id"], planned["status"], planned["dry_run"]) == (
            None,
            "planned",
            True,
        )
        assert [(s["id"], s["status"], s["plan"]) for s in planned["steps"]] == [
            ("exec-1", "pending", "run `exit 2` locally (timeout 60s)"),
            ("exec-2", "pending", "run `exit 0` locally (timeout 60s)"),
            (
                "group_start-3",
                "pending",
                "api is running: start will leave it (and what it needs) as it is; worker is "
                "stopped: start will start it",
            ),
            # played on the stack as the steps before it leave it, not as it is now
            (
                "wait_for-4",
                "pending",
                "worker will be running (after group_start-3): wait_for running will hold at once",
            ),
        ]
        assert (await f.commands.recipe_runs({}))["runs"] == []
        assert (f.statuses(), f.context.commands, f.context.names) == (
            {"api": "running", "worker": "stopped"},
            [],
            ["api"],
        )

    faked(tmp_path, CONFIG, scenario, context())


def test_step_output_goes_to_the_log_store_under_the_recipe(tmp_path: Path) -> None:
    async def scenario(f: Faked[ScriptedContext]) -> None:
        await refusal(f.commands.recipe_run({"name": "broken"}))
        lines = f.ops.logged_lines(recipe_log_name("broken"), tail=10, since=None)
        assert [(line["stream"], line["text"]) for line in lines] == [
            ("stdout", "[start-1] api is running"),
            ("stdout", "[migrate] no table"),
            ("stderr", "[migrate] failed: `./migrate --broken` exited with 3"),
        ]

    faked(tmp_path, CONFIG, scenario, context())


def test_wait_runs_after_the_going_run_and_a_gone_caller_leaves_the_run_going(
    tmp_path: Path,
) -> None:
    async def scenario(f: Faked[ScriptedContext]) -> None:
        caller = asyncio.ensure_future(f.commands.recipe_run({"name": "slow"}))
        await begun(f)
        caller.cancel()  # the client went away
        await asyncio.gather(caller, return_exceptions=True)
        [first] = (await f.commands.recipe_runs({"name": "slow"}))["runs"]
        assert first["status"] == "running"
        assert not f.context.one_offs[0].ended.done()
        waiting = asyncio.ensure_future(
            f.commands.recipe_run({"name": "slow", "wait": True, "detach": True})
        )
        await asyncio.sleep(0)
        assert not waiting.done()
        assert (await f.commands.recipe_cancel({"run_id": first["run_id"]}))["status"] == (
            "cancelled"
        )
        second = await waiting
        assert (second["status"], second["run_id"] != first["run_id"]) == ("running", True)
        runs = (await f.commands.recipe_runs({"name": "slow"}))["runs"]
        assert [(r["run_id"], r["status"]) for r in runs] == [
            (second["run_id"], "running"),
            (first["run_id"], "cancelled"),
        ]

    faked(tmp_path, CONFIG, scenario, context())
