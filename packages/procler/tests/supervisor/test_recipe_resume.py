"""A recipe run its supervisor left during a step (stopped under it), then `recipe resume`
by the next supervisor of the project, in process over the fakes: the run recorded
interrupted at that step with what the step printed, a step that is not idempotent not
run again without the user's word, --skip-step, --from-step, a changed recipe needing
--force. (A kill -9 and a `daemon restart` under a run are in the real-process tier.)"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from procler_testkit.in_process import Faked, faked
from procler_testkit.scripted import Ran, ScriptedContext, refusal

from procler.project import recipe_log_name

BEGUN = Ran(("begun migrating",), hangs=True)  # the step the supervisor stops under
DONE = Ran(("begun migrating", "done migrating"))  # its run after the resume


def config(migrate_idempotent: bool, extra: str = "") -> str:
    return f"""
version: 1
processes:
  api:
    command: serve api
recipes:
  deploy:
    steps:
      - stop: api
      - id: migrate
        exec: "./migrate"
        idempotent: {str(migrate_idempotent).lower()}
      - start: api{extra}
"""


def statuses(run: dict[str, Any]) -> list[tuple[str, str]]:
    return [(s["id"], s["status"]) for s in run["steps"]]


def interrupt_during_migrate(tmp_path: Path, conf: str) -> str:
    """A supervisor runs deploy until migrate has begun and printed, and stops."""
    run_id = ""

    async def scenario(f: Faked[ScriptedContext]) -> None:
        nonlocal run_id
        await f.commands.start({"name": "api"})
        run_id = (await f.commands.recipe_run({"name": "deploy", "detach": True}))["run_id"]
        for _ in range(10_000):  # loop turns, no time: until migrate's line is logged
            lines = f.ops.logged_lines(recipe_log_name("deploy"), tail=1, since=None)
            if [line["text"] for line in lines] == ["[migrate] begun migrating"]:
                break
            await asyncio.sleep(0)
        assert f.context.commands == ["./migrate"]

    faked(tmp_path, conf, scenario, ScriptedContext({"./migrate": BEGUN}))
    return run_id


def test_an_interrupted_exec_step_is_not_rerun_without_the_users_word(tmp_path: Path) -> None:
    conf = config(False)
    run_id = interrupt_during_migrate(tmp_path, conf)

    async def scenario(f: Faked[ScriptedContext]) -> None:
        run = await f.commands.recipe_status({"run_id": run_id})
        assert (run["status"], run["interrupted_step"], run["error"]) == (
            "interrupted",
            "migrate",
            "the supervisor stopped during the run (at step migrate)",
        )
        assert statuses(run) == [
            ("stop-1", "succeeded"),
            ("migrate", "cancelled"),
            ("start-3", "pending"),
        ]
        assert run["steps"][1]["output"] == "begun migrating\n"
        err = await refusal(f.commands.recipe_resume({"run_id": run_id}))
        assert (err.code, err.exit_code, err.data) == (
            "STEP_NOT_IDEMPOTENT",
            1,
            {"run_id": run_id, "step": "migrate", "last_output": ["begun migrating"]},
        )
        assert err.message == (
            "step migrate (exec ./migrate) was interrupted and is not idempotent: it may have "
            "done part of its work"
        )
        assert (await f.commands.recipe_status({"run_id": run_id}))["status"] == "interrupted"
        resumed = await f.commands.recipe_resume({"run_id": run_id, "skip_step": "migrate"})
        assert (resumed["status"], statuses(resumed)) == (
            "succeeded",
            [("stop-1", "succeeded"), ("migrate", "skipped"), ("start-3", "succeeded")],
        )
        assert (f.statuses(), f.context.commands) == ({"api": "running"}, [])
        assert await f.commands.recipe_status({"run_id": run_id}) == resumed
        err = await refusal(f.commands.recipe_resume({"run_id": run_id}))
        assert (err.code, err.exit_code, err.message) == (
            "RUN_NOT_RESUMABLE",
            2,
            f"run {run_id} is succeeded, not interrupted",
        )

    faked(tmp_path, conf, scenario, ScriptedContext({"./migrate": DONE}))


def test_from_step_runs_the_interrupted_step_again(tmp_path: Path) -> None:
    conf = config(False)
    run_id = interrupt_during_migrate(tmp_path, conf)

    async def scenario(f: Faked[ScriptedContext]) -> None:
        resumed = await f.commands.recipe_resume({"run_id": run_id, "from_step": "migrate"})
        assert resumed["steps"][1]["output"] == "begun migrating\ndone migrating\n"
        assert statuses(resumed) == [
            ("stop-1", "succeeded"),
            ("migrate", "succeeded"),
            ("start-3", "succeeded"),
        ]
        assert (f.statuses(), f.context.commands) == ({"api": "running"}, ["./migrate"])

    faked(tmp_path, conf, scenario, ScriptedContext({"./migrate": DONE}))


def test_an_idempotent_step_is_rerun_automatically(tmp_path: Path) -> None:
    conf = config(True)
    run_id = interrupt_during_migrate(tmp_path, conf)

    async def scenario(f: Faked[ScriptedContext]) -> None:
        before = await f.commands.recipe_status({"run_id": run_id})
        assert before["steps"][1]["output"] == "begun migrating\n"
        resumed = await f.commands.recipe_resume({"run_id": run_id})
        assert (resumed["status"], statuses(resumed)) == (
            "succeeded",
            [("stop-1", "succeeded"), ("migrate", "succeeded"), ("start-3", "succeeded")],
        )
        assert resumed["steps"][1]["output"] == "begun migrating\ndone migrating\n"
        assert (f.statuses(), f.context.commands) == ({"api": "running"}, ["./migrate"])

    faked(tmp_path, conf, scenario, ScriptedContext({"./migrate": DONE}))


def test_a_recipe_changed_since_the_run_began_needs_force(tmp_path: Path) -> None:
    run_id = interrupt_during_migrate(tmp_path, config(False))

    async def scenario(f: Faked[ScriptedContext]) -> None:
        err = await refusal(f.commands.recipe_resume({"run_id": run_id, "skip_step": "migrate"}))
        assert (err.code, err.exit_code, err.message) == (
            "RECIPE_CHANGED",
            1,
            f"recipe deploy changed since run {run_id} started",
        )
        resumed = await f.commands.recipe_resume(
            {"run_id": run_id, "skip_step": "migrate", "force": True}
        )
        assert statuses(resumed) == [
            ("stop-1", "succeeded"),
            ("migrate", "skipped"),
            ("start-3", "succeeded"),
            ("stop-4", "succeeded"),
        ]
        assert f.statuses() == {"api": "stopped"}

    changed = config(False, extra="\n      - stop: api")
    faked(tmp_path, changed, scenario, ScriptedContext({"./migrate": DONE}))
