"""`procler history NAME` through the real CLI: health moves answered by a supervisor, then
from the disk without one; its usage errors; an old database. The exits and transitions a
supervisor records are tested in process (tests/supervisor/test_history.py)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from procler_testkit.harness import HISTORY, Project
from procler_testkit.rows import exits, moves, newest_first

from procler.supervisor.history import history
from procler.supervisor.state_store import StateStore


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


def test_a_database_from_before_the_history_columns_is_read(tmp_path: Path) -> None:
    path = tmp_path / "state.db"
    old = sqlite3.connect(path)
    old.execute(
        "CREATE TABLE event (ts REAL NOT NULL, name TEXT NOT NULL, src TEXT NOT NULL, "
        "dst TEXT NOT NULL, reason TEXT NOT NULL)"
    )
    old.execute("INSERT INTO event VALUES (0.5, 'api', 'stopped', 'starting', 'start requested')")
    old.commit()
    old.close()
    store = StateStore(path)
    store.health_event("api", 1, "stopped", "starting", "run started")
    try:
        assert history(store, "api", 10) == {
            "name": "api",
            "exits": [],
            "health": [
                {
                    "at": history(store, "api", 1)["health"][0]["at"],
                    "run": 1,
                    "from": "stopped",
                    "to": "starting",
                    "reason": "run started",
                }
            ],
            "transitions": [
                {
                    "at": "1970-01-01T00:00:00.500000Z",
                    "run": None,
                    "from": "stopped",
                    "to": "starting",
                    "reason": "start requested",
                }
            ],
        }
    finally:
        store.close()
