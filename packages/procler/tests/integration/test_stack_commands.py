"""`up --wait`, `ci` and `why` against a real supervisor and real processes."""

from __future__ import annotations

from pathlib import Path

from procler_testkit.harness import PY, Project, wait_for

SLEEP = f'{PY} -c "import time; time.sleep(600)"'
READY_STACK = f"""
version: 1
processes:
  db:
    command: {SLEEP}
    healthcheck: {{test: "{PY} -c pass", interval: 1s}}
  migrate:
    command: {PY} -c "print('migrated')"
    restart: "no"
    depends_on: [{{name: db, condition: healthy}}]
  api:
    command: {SLEEP}
    depends_on: [{{name: migrate, condition: completed_successfully}}]
"""
BROKEN_STACK = f"""
version: 1
processes:
  db:
    command: {SLEEP}
  worker:
    command: {PY} -c "import sys, time; time.sleep(0.5); print('no queue configured', file=sys.stderr); sys.exit(3)"
    restart: "no"
    depends_on: [db]
"""


def test_up_wait_answers_once_the_stack_is_ready(tmp_path: Path) -> None:
    project = Project(tmp_path, READY_STACK)
    try:
        code, answer = project.run("up", "--wait", "--timeout", "30s")
        data = answer["data"]
        assert (code, data["ready"]) == (0, True)
        assert [(p["name"], p["status"], p["ready"]) for p in data["processes"]] == [
            ("db", "healthy", True),
            ("migrate", "exited", True),
            ("api", "running", True),
        ]
    finally:
        project.close()


def test_up_wait_names_the_process_that_cannot_get_ready(tmp_path: Path) -> None:
    project = Project(tmp_path, BROKEN_STACK)
    try:
        code, answer = project.run("up", "--wait", "--timeout", "30s")
        assert (code, answer["error_code"]) == (1, "CONDITION_IMPOSSIBLE")
        assert (
            answer["error"] == "worker is failed, not up for 1s, completed, or scheduled: it failed"
        )
        [worker] = answer["data"]["not_ready"]
        assert (worker["name"], worker["status"], worker["stderr"]) == (
            "worker",
            "failed",
            ["no queue configured"],
        )
        assert worker["last_exit"]["code"] == 3
    finally:
        project.close()


def test_ci_stops_everything_whatever_the_outcome(tmp_path: Path) -> None:
    good = Project(tmp_path / "good", READY_STACK)
    bad = Project(tmp_path / "bad", BROKEN_STACK)
    try:
        code, answer = good.run("ci", "--timeout", "30s")
        assert (code, answer["data"]["ready"], answer["data"]["stopped"]) == (0, True, True)
        assert {p["status"] for p in good.ok("status")["processes"]} == {"stopped", "exited"}
        code, answer = bad.run("ci", "--timeout", "30s")
        assert (code, answer["error_code"], answer["data"]["stopped"]) == (
            1,
            "CONDITION_IMPOSSIBLE",
            True,
        )
        assert {p["name"]: p["status"] for p in bad.ok("status")["processes"]} == {
            "db": "stopped",
            "worker": "failed",
        }
    finally:
        good.close()
        bad.close()


def test_why_explains_a_stopped_and_a_failed_process(tmp_path: Path) -> None:
    project = Project(tmp_path, BROKEN_STACK)
    try:
        data = project.ok("why", "worker")
        assert (
            data["why"]
            == "worker is stopped because nothing asked it to run; `procler start worker`"
        )
        assert data["dependencies"] == [
            {"name": "db", "condition": "started", "status": "stopped", "holds": False}
        ]
        assert (data["waiting_for"], data["desired"]) == (["db started"], "stopped")
        project.ok("start", "worker")
        project.run("wait", "worker", "--for", "failed", "--timeout", "10s")
        data = project.ok("why", "worker")
        assert data["why"] == (
            "worker failed: exit code 3; nothing restarts it until it is started again"
        )
        assert (data["stderr"], data["dependencies"][0]["holds"]) == (["no queue configured"], True)
        assert data["restart_budget"] == {
            "policy": "no",
            "restarts": 0,
            "max_restarts": 5,
            "left": 5,
        }
    finally:
        project.close()


def test_restart_clear_logs_keeps_only_the_new_run(tmp_path: Path) -> None:
    project = Project(
        tmp_path,
        f"""
version: 1
processes:
  talker:
    command: {PY} -c "import time; print('hello', flush=True); time.sleep(600)"
""",
    )
    try:
        project.ok("start", "talker")
        assert wait_for(lambda: len(project.ok("logs", "talker", "--run", "all")["lines"]) == 1)
        project.ok("restart", "talker")
        assert wait_for(lambda: len(project.ok("logs", "talker", "--run", "all")["lines"]) == 2)
        restarted = project.ok("restart", "talker", "--clear-logs")
        assert (restarted["run"], restarted["status"]) == (3, "running")
        assert wait_for(lambda: len(project.ok("logs", "talker", "--run", "all")["lines"]) >= 1)
        lines = project.ok("logs", "talker", "--run", "all")["lines"]
        assert [(line["run"], line["text"]) for line in lines] == [(3, "hello")]
    finally:
        project.close()


def test_a_stack_with_a_schedule_is_ready_for_up_wait_ci_and_wait_all(tmp_path: Path) -> None:
    p = Project(
        tmp_path / "cron",
        f"""
version: 1
processes:
  api:
    command: {SLEEP}
  db:
    command: {SLEEP}
    healthcheck: {{test: "true", interval: 1s}}
  migrate:
    command: {PY} -c pass
    restart: "no"
  cleanup:
    command: {PY} -c pass
    schedule: "0 0 1 1 *"
""",
    )
    try:
        up = p.ok("up", "--wait", "--timeout", "30s")
        assert [(r["name"], r["status"], r["ready"]) for r in up["processes"]] == [
            ("api", "running", True),
            ("db", "healthy", True),
            ("migrate", "exited", True),
            ("cleanup", "scheduled", True),  # armed: ready
        ]
        waited = p.ok("wait", "--all", "--for", "healthy", "--timeout", "30s")
        assert [r["condition_met"] for r in waited["processes"]] == [True] * 4
        p.ok("down")
        ci = p.ok("ci", "--timeout", "30s")
        assert (ci["ready"], ci["stopped"]) == (True, True)
    finally:
        p.close()


def test_the_timeout_bounds_the_whole_up_wait(tmp_path: Path) -> None:
    # never healthy, and not unhealthy either within its start period: the start's own
    # wait for the check and the readiness wait once took the timeout each
    p = Project(
        tmp_path / "slow",
        f"""
version: 1
processes:
  worker:
    command: {SLEEP}
    healthcheck: {{test: "false", interval: 1s, start_period: 60s}}
""",
    )
    try:
        code, answer = p.run("up", "--wait", "--timeout", "4s", timeout=7.5)
        assert (code, answer["error_code"]) == (1, "TIMEOUT")
        assert (
            answer["data"]["not_ready"][0]["why"] == "not healthy, completed, or scheduled after 4s"
        )
    finally:
        p.close()
