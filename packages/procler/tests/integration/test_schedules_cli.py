"""A schedule firing every second, end to end through the real CLI and supervisor."""

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


def test_restarts_of_a_stack_with_a_schedule_answer_when_done_not_after_their_timeout(
    tmp_path: Path,
) -> None:
    """`restart --all` and `namespace restart` waited out their whole --timeout (30 s by
    default) in any project with a schedule, as if an armed schedule never became ready.
    Each call is cut at 20 s, so such a wait fails the test instead of passing slowly."""
    sleeper = f'[{PY}, -c, "import time; time.sleep(600)"]'
    proj = Project(
        tmp_path / "stack",
        f"""version: 1
processes:
  web:
    args: {sleeper}
  cleanup:
    args: [{PY}, -c, "pass"]
    schedule: "0 3 * * *"
""",
    )
    try:
        proj.ok("up")
        for command in (("restart", "--all"), ("namespace", "restart", "default")):
            code, answer = proj.run(*command, timeout=20)
            assert code == 0, answer
            statuses = {p["name"]: p["status"] for p in answer["data"]["processes"]}
            assert statuses == {"web": "running", "cleanup": "scheduled"}
        now = proj.ok("status")
        assert {p["name"]: p["status"] for p in now["processes"]} == {
            "web": "running",
            "cleanup": "scheduled",
        }
    finally:
        proj.close()
