"""Recipe runs owned by a real supervisor over real processes: a whole run's records (its
transitions timed within their steps), the CLI's exit codes and envelope, step output in
the log store. The engine's logic (on_error, failures named, one run at a time, cancel,
the dry run) is tested in process: supervisor/test_recipe_runs.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from procler_testkit.harness import PY, Project, wait_for

SLEEPER = f'{PY} -c "import time; time.sleep(600)"'
CONFIG = f"""
version: 1
processes:
  api:
    command: {SLEEPER}
  worker:
    command: {SLEEPER}
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
      - exec: "{PY} -c \\"print('migrated')\\""
      - start: api
      - start: worker
  broken:
    steps:
      - start: api
      - id: migrate
        exec: "{PY} -c \\"import sys; print('no table'); sys.exit(3)\\""
      - start: worker
  lenient:
    on_error: continue
    steps:
      - exec: "{PY} -c \\"import sys; sys.exit(2)\\""
      - exec: "{PY} -c \\"import sys; sys.exit(0)\\""
        ignore_error: true
      - group_start: backend
      - wait_for: {{process: worker, condition: running, timeout: 5s}}
  slow:
    steps:
      - id: hold
        exec: "{PY} -c \\"import time; time.sleep(30)\\""
"""


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Project]:
    proj = Project(tmp_path, CONFIG)
    yield proj
    proj.close()


def _steps(run: dict[str, Any]) -> list[tuple[object, ...]]:
    return [(s["id"], s["kind"], s["status"], s["exit_code"], s["output"]) for s in run["steps"]]


def test_the_deploy_recipe_runs_real_processes_and_a_real_command(project: Project) -> None:
    project.ok("start", "--all")
    run = project.ok("recipe", "run", "deploy")
    assert (run["recipe"], run["status"], run["error"]) == ("deploy", "succeeded", None)
    assert _steps(run) == [
        ("stop-1", "stop", "succeeded", None, "worker is stopped"),
        ("stop-2", "stop", "succeeded", None, "api is stopped"),
        ("wait-3", "wait", "succeeded", None, "waited 0.1s"),
        ("exec-4", "exec", "succeeded", 0, "migrated\n"),
        ("start-5", "start", "succeeded", None, "api is running"),
        ("start-6", "start", "succeeded", None, "worker is running"),
    ]
    for step in run["steps"]:  # on the wall clock: each transition within its step
        times = [step["started_at"], *(t["at"] for t in step["transitions"]), step["ended_at"]]
        assert times == sorted(times)
    assert [p["status"] for p in project.ok("status")["processes"]] == ["running", "running"]
    assert len(project.marked_pids()) == 2  # the processes the recipe started really run
    assert project.ok("recipe", "status", run["run_id"]) == run


def test_unknown_recipe_and_run_are_usage_errors(project: Project) -> None:
    code, answer = project.run("recipe", "run", "deplyo")
    assert (code, answer["error_code"], answer["error"]) == (
        2,
        "RECIPE_NOT_FOUND",
        "no recipe named 'deplyo'",
    )
    assert answer["suggestion"] == (
        "did you mean deploy? run `procler recipe list` to see the defined recipes"
    )
    code, answer = project.run("recipe", "status", "nope")
    assert (code, answer["error_code"]) == (2, "RUN_NOT_FOUND")


def test_step_output_goes_to_the_log_store_under_the_recipe(project: Project) -> None:
    project.run("recipe", "run", "broken")

    def logged() -> list[tuple[str, str]]:
        lines = project.ok("logs", "--recipe", "broken")["lines"]
        return [(line["stream"], line["text"]) for line in lines]

    expected = [
        ("stdout", "[start-1] api is running"),
        ("stdout", "[migrate] no table"),
        (
            "stderr",
            f"[migrate] failed: `{PY} -c \"import sys; print('no table'); sys.exit(3)\"` "
            "exited with 3",
        ),
    ]
    assert wait_for(lambda: logged() == expected, 10), logged()
    code, answer = project.run("logs", "--recipe", "nope")
    assert (code, answer["error_code"]) == (2, "RECIPE_NOT_FOUND")
