"""`procler history NAME` with real processes and the real CLI: answered by a supervisor,
and from the disk without one; --limit's bounds. What the history records (exits,
restarts, transitions, limits, old databases) is tested in process:
supervisor/test_history_records.py."""

from __future__ import annotations

from collections.abc import Callable

from procler_testkit.harness import HISTORY, Project
from procler_testkit.rows import exits, moves, newest_first


def test_health_history_healthy_then_unhealthy_then_read_from_disk(
    make_project: Callable[[str], Project],
) -> None:
    project = make_project(HISTORY)
    project.ok("start", "probed")
    project.ok("wait", "probed", "--for", "unhealthy", "--timeout", "20s")
    health = [
        (1, "healthy", "unhealthy", "health check failed 1 times: exit 1: "),
        (1, "starting", "healthy", "health check passed: exit 0: "),
        (1, "stopped", "starting", "run started"),
    ]
    got = project.ok("history", "probed")
    assert (moves(got["health"]), got["exits"]) == (health, [])
    assert newest_first([h["at"] for h in got["health"]])
    assert moves(got["transitions"])[0] == (1, "healthy", "unhealthy", health[0][3])
    project.ok("daemon", "stop")
    code, answer = project.run("history", "probed", "--limit", "2")
    assert code == 0
    assert not project.ok("daemon", "status")["running"]  # history started none
    assert moves(answer["data"]["health"]) == [(1, "unhealthy", "stopped", "run ended"), health[0]]
    assert exits(answer["data"]["exits"]) == [(1, None, 15, "daemon stop")]


def test_bad_limit_and_unknown_process_are_usage_errors(
    make_project: Callable[[str], Project],
) -> None:
    project = make_project(HISTORY)
    code, answer = project.run("history", "probed", "--limit", "0")
    assert (code, answer["error_code"]) == (2, "USAGE")
    assert answer["error"] == "--limit must be between 1 and 1000, got 0"
    code, answer = project.run("history", "nope")
    assert (code, answer["error_code"]) == (2, "PROCESS_NOT_FOUND")
