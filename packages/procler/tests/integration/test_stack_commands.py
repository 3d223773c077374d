"""`ci` and `restart --clear-logs` against a real supervisor and real processes (`up
--wait`, `ci`, `why` and `up` are tested in process: tests/supervisor/test_stack.py)."""

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
