"""A schedule firing every second, end to end through the real CLI and supervisor. The
schedules' logic is tested in process: supervisor/test_schedules.py,
supervisor/test_schedule_restarts.py."""

from __future__ import annotations

from pathlib import Path

from procler_testkit.harness import PY, Project


def test_every_second_end_to_end_through_the_cli(tmp_path: Path) -> None:
    job = f'[{PY}, -c, "import time; time.sleep(0.3)"]'
    proj = Project(
        tmp_path / "e2e",
        f"version: 1\nprocesses:\n  tick:\n    args: {job}\n    schedule: '@every 1s'\n",
    )
    try:
        started = proj.ok("start", "tick")
        assert (started["status"], started["schedule"]["schedule"]) == ("scheduled", "@every 1s")
        assert proj.run("wait", "tick", "--for", "running", "--timeout", "10s")[0] == 0
        listed = proj.ok("schedule", "list", "--runs", "1")["schedules"]
        assert [(s["name"], s["history"][0]["trigger"]) for s in listed] == [("tick", "schedule")]
        stopped = proj.ok("stop", "tick")
        assert (stopped["status"], stopped["schedule"]["paused"]) == ("stopped", True)
        runs = proj.ok("schedule", "list", "tick")["schedules"][0]["runs"]
        proj.ok("daemon", "stop")
        offline = proj.ok("status", "tick")  # from disk: no supervisor is started
        assert (offline["schedule"]["paused"], offline["schedule"]["runs"]) == (True, runs)
        code, answer = proj.run("schedule", "run-now", "nope")
        assert (code, answer["error_code"]) == (2, "PROCESS_NOT_FOUND")
    finally:
        proj.close()
