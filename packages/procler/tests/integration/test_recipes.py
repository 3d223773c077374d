"""Recipe runs owned by a real supervisor: step records, on_error, one run at a time."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from procler_testkit.harness import PROCLER, PY, Project, wait_for

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


def _steps(run: dict[str, object]) -> list[tuple[object, ...]]:
    return [
        (s["id"], s["kind"], s["status"], s["exit_code"], s["output"])  # type: ignore[index]
        for s in run["steps"]  # type: ignore[attr-defined]
    ]


def test_the_deploy_recipe_runs_to_completion_with_exact_step_records(project: Project) -> None:
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
    assert [s["idempotent"] for s in run["steps"]] == [True, True, True, False, True, True]
    # each process step's own status changes, timed by the supervisor within the step
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
    assert project.ok("status", "api")["status"] == "running"
    stored = project.ok("recipe", "status", run["run_id"])
    assert stored == run
    runs = project.ok("recipe", "runs", "deploy")["runs"]
    assert [(r["run_id"], r["status"]) for r in runs] == [(run["run_id"], "succeeded")]


def test_on_error_stop_skips_the_rest_and_names_the_failed_step(project: Project) -> None:
    code, answer = project.run("recipe", "run", "broken")
    assert (code, answer["error_code"]) == (1, "RECIPE_FAILED")
    assert answer["error"] == (
        f"recipe broken failed at step migrate (exit 3): `{PY} -c \"import sys; print('no table'); "
        'sys.exit(3)"` exited with 3 -- last output: no table'
    )
    run = answer["data"]
    assert run["status"] == "failed"
    assert [(s["id"], s["status"], s["exit_code"]) for s in run["steps"]] == [
        ("start-1", "succeeded", None),
        ("migrate", "failed", 3),
        ("start-3", "skipped", None),
    ]
    assert project.ok("status", "worker")["status"] == "stopped"


def test_on_error_continue_runs_every_step_and_fails_at_the_end(project: Project) -> None:
    code, answer = project.run("recipe", "run", "lenient")
    assert (code, answer["error_code"]) == (1, "RECIPE_FAILED")
    steps = answer["data"]["steps"]
    assert [(s["id"], s["status"], s["exit_code"], s["ignored_error"]) for s in steps] == [
        ("exec-1", "failed", 2, False),
        ("exec-2", "succeeded", 0, False),
        ("group_start-3", "succeeded", None, False),
        ("wait_for-4", "succeeded", None, False),
    ]
    assert steps[2]["output"] == "api is running\nworker is running"
    assert steps[3]["output"] == "worker is running (running)"
    assert answer["data"]["error"] == (
        f'step exec-1 failed: `{PY} -c "import sys; sys.exit(2)"` exited with 2'
    )


def test_one_run_of_a_recipe_at_a_time(project: Project) -> None:
    first = project.ok("recipe", "run", "slow", "--detach")
    assert (first["recipe"], first["status"]) == ("slow", "running")
    code, answer = project.run("recipe", "run", "slow")
    assert (code, answer["error_code"], answer["data"]) == (
        1,
        "RECIPE_RUNNING",
        {"run_id": first["run_id"]},
    )
    assert answer["error"] == f"recipe slow is already running (run {first['run_id']})"


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


def test_list_and_show(project: Project) -> None:
    listed = project.ok("recipe", "list")["recipes"]
    assert [(r["name"], r["steps"], r["on_error"]) for r in listed] == [
        ("deploy", 6, "stop"),
        ("broken", 3, "stop"),
        ("lenient", 4, "continue"),
        ("slow", 1, "stop"),
    ]
    shown = project.ok("recipe", "show", "lenient")
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
        "args": [],
        "retries": 0,
        "retry_delay": 1.0,
        "when": None,
    }
    assert len(shown["definition_hash"]) == 16


def test_cancel_stops_the_running_step_and_cancels_the_rest(project: Project) -> None:
    run_id = project.ok("recipe", "run", "slow", "--detach")["run_id"]

    def step_running() -> bool:
        run = project.ok("recipe", "status", run_id)
        return bool(run["steps"][0]["status"] == "running" and project.marked_pids())

    assert wait_for(step_running, 30)
    run = project.ok("recipe", "cancel", run_id)
    assert (run["status"], run["error"]) == ("cancelled", "cancelled at step hold")
    assert [(s["status"], s["error"]) for s in run["steps"]] == [
        ("cancelled", "cancelled (recipe cancel)")
    ]
    assert project.marked_pids() == []
    code, answer = project.run("recipe", "cancel", run_id)
    assert (code, answer["error_code"], answer["error"]) == (
        2,
        "RUN_NOT_RUNNING",
        f"run {run_id} is cancelled, not running",
    )


def test_dry_run_says_what_each_step_would_do_and_writes_nothing(project: Project) -> None:
    project.ok("start", "api")
    planned = project.ok("recipe", "run", "lenient", "--dry-run")
    assert (planned["run_id"], planned["status"], planned["dry_run"]) == (None, "planned", True)
    assert [(s["id"], s["status"], s["plan"]) for s in planned["steps"]] == [
        ("exec-1", "pending", f'run `{PY} -c "import sys; sys.exit(2)"` locally (timeout 60s)'),
        ("exec-2", "pending", f'run `{PY} -c "import sys; sys.exit(0)"` locally (timeout 60s)'),
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
    assert project.ok("recipe", "runs")["runs"] == []
    assert project.ok("status", "worker")["status"] == "stopped"


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


def test_wait_runs_after_the_going_run_and_a_gone_client_leaves_a_run_going(
    project: Project,
) -> None:
    client = subprocess.Popen(
        [PROCLER, "recipe", "run", "slow"], cwd=project.root, stdout=subprocess.DEVNULL
    )
    assert wait_for(lambda: project.ok("recipe", "runs", "slow")["runs"] != [], 30)
    client.kill()
    client.wait(10)
    first = project.ok("recipe", "runs", "slow")["runs"][0]
    assert wait_for(lambda: project.marked_pids() != [], 30)
    assert project.ok("recipe", "status", first["run_id"])["status"] == "running"
    waiting = subprocess.Popen(
        [PROCLER, "recipe", "run", "slow", "--wait", "--detach"],
        cwd=project.root,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert project.ok("recipe", "cancel", first["run_id"])["status"] == "cancelled"
        out, _ = waiting.communicate(timeout=30)
    finally:  # never left running (or its pipe open) past the test
        waiting.kill()
        waiting.wait(10)
        assert waiting.stdout is not None
        waiting.stdout.close()
    second = json.loads(out)["data"]
    assert (second["status"], second["run_id"] != first["run_id"]) == ("running", True)
