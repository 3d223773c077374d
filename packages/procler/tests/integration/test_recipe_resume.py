"""kill -9 of the supervisor during a recipe step, then `recipe resume` (real processes,
the real CLI). The resume's choices (--skip-step, --from-step, idempotent steps run again,
a changed recipe) are tested in process: supervisor/test_recipe_resume.py."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from procler_testkit.harness import PY, Project, alive, sentinel_running, wait_for

# Each exec step prints and writes a marker when it begins, then waits for a release file
# (bounded).
HOLD = (
    f"{PY} -c \\\"import pathlib, time; print('begun {{mark}}', flush=True); "
    "pathlib.Path('{mark}').touch(); "
    "[time.sleep(0.05) for _ in range(600) if not pathlib.Path('release').exists()]; "
    "print('done {mark}')\\\""
)


def _config(migrate_idempotent: bool, extra: str = "") -> str:
    return f"""
version: 1
processes:
  api:
    command: {PY} -c "import time; time.sleep(600)"
recipes:
  deploy:
    steps:
      - stop: api
      - id: migrate
        exec: "{HOLD.format(mark="migrating")}"
        idempotent: {str(migrate_idempotent).lower()}
      - start: api{extra}
"""


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Project]:
    proj = Project(tmp_path, _config(False))
    yield proj
    proj.close()


def _interrupt_during_migrate(project: Project) -> str:
    run_id: str = project.ok("recipe", "run", "deploy", "--detach")["run_id"]
    assert wait_for(lambda: (project.root / "migrating").exists(), 30)
    # what it printed is in the recipe's log as it comes, so it outlives the supervisor
    assert wait_for(lambda: _logged(project)[-1:] == ["[migrate] begun migrating"], 30)
    pid = project.supervisor_pid()
    os.kill(pid, signal.SIGKILL)
    assert wait_for(lambda: not alive(pid), 10)
    # the dead supervisor's sentinel sweeps the project's processes: let it finish first
    assert wait_for(lambda: not sentinel_running(str(project.root)), 30)
    return run_id


def _logged(project: Project) -> list[str]:
    return [line["text"] for line in project.ok("logs", "--recipe", "deploy")["lines"]]


def _statuses(run: dict[str, Any]) -> list[tuple[str, str]]:
    return [(s["id"], s["status"]) for s in run["steps"]]


def test_an_interrupted_exec_step_is_not_rerun_without_the_users_word(project: Project) -> None:
    run_id = _interrupt_during_migrate(project)
    run = project.ok("recipe", "status", run_id)
    assert (run["status"], run["interrupted_step"], run["error"]) == (
        "interrupted",
        "migrate",
        "the supervisor stopped during the run (at step migrate)",
    )
    assert _statuses(run) == [
        ("stop-1", "succeeded"),
        ("migrate", "cancelled"),
        ("start-3", "pending"),
    ]
    code, answer = project.run("recipe", "resume", run_id)
    assert (code, answer["error_code"]) == (1, "STEP_NOT_IDEMPOTENT")
    assert answer["data"] == {
        "run_id": run_id,
        "step": "migrate",
        "last_output": ["begun migrating"],
    }
    assert answer["error"] == (
        f"step migrate (exec {HOLD.format(mark='migrating').replace(chr(92), '')}) was "
        "interrupted and is not idempotent: it may have done part of its work"
    )
    assert project.ok("recipe", "status", run_id)["status"] == "interrupted"
    resumed = project.ok("recipe", "resume", run_id, "--skip-step", "migrate")
    assert (resumed["status"], _statuses(resumed)) == (
        "succeeded",
        [("stop-1", "succeeded"), ("migrate", "skipped"), ("start-3", "succeeded")],
    )
    assert project.ok("status", "api")["status"] == "running"
    # on the event stream since the new supervisor began (after a gap: the old one's)
    moves = [
        (m["step"], m["from"], m["to"], m["reason"])
        for m in project.events("--since", "0")
        if m["type"] == "recipe_step"
    ]
    assert moves == [
        ("migrate", "running", "cancelled", "interrupted: the supervisor stopped during this step"),
        ("migrate", "cancelled", "skipped", "resume --skip-step migrate"),
        ("start-3", "pending", "running", ""),
        ("start-3", "running", "succeeded", ""),
    ]
    code, answer = project.run("recipe", "resume", run_id)
    assert (code, answer["error_code"], answer["error"]) == (
        2,
        "RUN_NOT_RESUMABLE",
        f"run {run_id} is succeeded, not interrupted",
    )
