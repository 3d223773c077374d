"""A recipe run that loses its supervisor (daemon restart, daemon stop) is `interrupted` at
the step it was in, not `failed` by the processes stopping under it; the caller waiting for
it is told so, and the run resumes (real processes)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from procler_testkit.harness import PY, Project, wait_for

SLEEP = f'[{PY}, -c, "import time; time.sleep(600)"]'


def stack(tmp_path: Path) -> str:
    return f"""
version: 1
processes:
  db:
    args: {SLEEP}
  api:
    args: {SLEEP}
    healthcheck: {{test: "test -e {tmp_path}/ready", interval: 200ms, start_period: 120s}}
    depends_on: [db]
recipes:
  deploy:
    steps:
      - restart: db
      - id: api-healthy
        wait_for: {{process: api, condition: healthy, timeout: 60s}}
"""


def step_running(p: Project, run_id: str, step: str) -> bool:
    steps = p.ok("recipe", "status", run_id)["steps"]
    return any(s["id"] == step and s["status"] == "running" for s in steps)


def test_a_run_cut_short_by_the_supervisor_is_interrupted_and_resumes(
    make_project: Callable[[str], Project], tmp_path: Path
) -> None:
    p = make_project(stack(tmp_path))
    p.ok("up", "--timeout", "2s")  # api is not healthy until the test says
    answered: list[tuple[int, dict[str, Any]]] = []
    waiting = threading.Thread(target=lambda: answered.append(p.run("recipe", "run", "deploy")))
    waiting.start()
    assert wait_for(lambda: bool(p.ok("recipe", "runs")["runs"]), 30)
    run_id = p.ok("recipe", "runs")["runs"][0]["run_id"]
    assert wait_for(lambda: step_running(p, run_id, "api-healthy"), 30)
    p.ok("daemon", "restart")
    waiting.join(60)
    [(code, env)] = answered
    assert (code, env["error_code"], env["data"]["interrupted_step"]) == (
        1,
        "RECIPE_INTERRUPTED",
        "api-healthy",
    )
    run = p.ok("recipe", "status", run_id)
    assert (run["status"], run["interrupted_step"], run["error"]) == (
        "interrupted",
        "api-healthy",
        "the supervisor stopped during the run (at step api-healthy)",
    )
    assert [(s["id"], s["status"]) for s in run["steps"]] == [
        ("restart-1", "succeeded"),
        ("api-healthy", "cancelled"),
    ]
    (tmp_path / "ready").touch()
    resumed = p.ok("recipe", "resume", run_id)
    assert (resumed["status"], [s["status"] for s in resumed["steps"]]) == (
        "succeeded",
        ["succeeded", "succeeded"],
    )
    assert p.ok("status", "api")["status"] == "healthy"
    # daemon stop interrupts a run the same way
    (tmp_path / "ready").unlink()
    p.ok("restart", "api", "--timeout", "2s")
    run_id = p.ok("recipe", "run", "deploy", "--detach")["run_id"]
    assert wait_for(lambda: step_running(p, run_id, "api-healthy"), 30)
    p.ok("daemon", "stop")
    run = p.ok("recipe", "status", run_id)
    assert (run["status"], run["interrupted_step"]) == ("interrupted", "api-healthy")


def test_capabilities_define_the_run_statuses(
    make_project: Callable[[str], Project], tmp_path: Path
) -> None:
    p = make_project(stack(tmp_path))
    terms = p.ok("capabilities")["terms"]
    assert sorted(terms) == [
        "ready",
        "recipe run cancelled",
        "recipe run failed",
        "recipe run interrupted",
        "recipe run succeeded",
    ]
    assert terms["recipe run interrupted"].startswith(
        "the run lost its supervisor (daemon stop, daemon restart, a crash or kill -9)"
    )
