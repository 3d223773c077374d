"""`history NAME` in process, over the fakes: exits, health moves and transitions from the
event table, newest first, bounded by the limit; answered by the supervisor, then read
from the disk once it stopped; and a database from before the history columns."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from procler_testkit.in_process import Faked, faked
from procler_testkit.rows import exits, moves, newest_first
from procler_testkit.scripted import refusal

from procler import project, states
from procler.contexts.base import ExitInfo
from procler.supervisor.history import history
from procler.supervisor.state_store import StateStore

CONFIG = """
version: 1
processes:
  flaky:
    command: ./flaky
    restart: {policy: on-failure, backoff: {initial: 0.1s}}
  probed:
    command: ./probed
    healthcheck: {test: "test -e ok", interval: 0.2s, retries: 1}
"""


def test_exits_and_transitions_of_a_process_that_exited_3_then_was_restarted(
    tmp_path: Path,
) -> None:
    async def scenario(f: Faked) -> None:
        assert await f.commands.history({"name": "flaky", "limit": 50}) == {
            "name": "flaky",
            "exits": [],
            "health": [],
            "transitions": [],
        }
        await f.commands.start({"name": "flaky"})
        await f.clock.sleep(0.5)
        f.context.started[0].end(ExitInfo(3))  # its first run exits 3 after 0.5 s
        await f.until(lambda: f.rt("flaky").run == 2 and f.rt("flaky").status == "running")
        await f.commands.restart({"name": "flaky"})
        got = await f.commands.history({"name": "flaky", "limit": 50})
        assert exits(got["exits"]) == [
            (2, None, 15, "restart requested"),
            (1, 3, None, "exit code 3; restart 1/5 in 0.1s"),
        ]
        first = got["exits"][1]  # it ran through its start grace, then 0.5 s
        assert (first["started_at"] < first["ended_at"], first["duration_seconds"]) == (
            True,
            states.START_GRACE + 0.5,
        )
        assert moves(got["transitions"]) == [
            (3, "starting", "running", "started"),
            (3, "stopped", "starting", "restart requested"),
            (2, "stopping", "stopped", "restart requested"),
            (2, "running", "stopping", "restart requested"),
            (2, "starting", "running", "started"),
            (2, "backoff", "starting", "restart 1 after backoff"),
            (1, "running", "backoff", "exit code 3; restart 1/5 in 0.1s"),
            (1, "starting", "running", "started"),
            (1, "stopped", "starting", "start requested"),
        ]
        assert newest_first([t["at"] for t in got["transitions"]])
        assert got["health"] == []
        limited = await f.commands.history({"name": "flaky", "limit": 2})
        assert (exits(limited["exits"]), moves(limited["transitions"])) == (
            exits(got["exits"]),
            moves(got["transitions"][:2]),
        )
        assert f.statuses()["flaky"] == "running"

    faked(tmp_path, CONFIG, scenario)


def test_health_history_healthy_then_unhealthy_then_read_from_disk(tmp_path: Path) -> None:
    health = [
        (1, "healthy", "unhealthy", "health check failed 1 times: exit 1: down"),
        (1, "starting", "healthy", "health check passed: exit 0: ok"),
        (1, "stopped", "starting", "run started"),
    ]

    async def scenario(f: Faked) -> None:
        f.context.probe_results = [True] + [False] * 50
        await f.commands.start({"name": "probed"})
        await f.until(lambda: f.statuses()["probed"] == "unhealthy")
        got = await f.commands.history({"name": "probed", "limit": 50})
        assert (moves(got["health"]), got["exits"]) == (health, [])
        assert newest_first([h["at"] for h in got["health"]])
        assert moves(got["transitions"])[0] == (1, "healthy", "unhealthy", health[0][3])
        await f.commands.daemon_stop({})

    faked(tmp_path, CONFIG, scenario)
    store = StateStore(Path(project.state_dir(str(tmp_path / "proj"))) / "state.db")
    try:
        answer = history(store, "probed", 2)  # as `history` reads it with no supervisor
    finally:
        store.close()
    assert moves(answer["health"]) == [(1, "unhealthy", "stopped", "run ended"), health[0]]
    assert exits(answer["exits"]) == [(1, None, 15, "daemon stop")]


def test_an_unknown_process_has_no_history(tmp_path: Path) -> None:
    async def scenario(f: Faked) -> None:
        err = await refusal(f.commands.history({"name": "nope", "limit": 50}))
        assert (err.code, err.exit_code) == ("PROCESS_NOT_FOUND", 2)

    faked(tmp_path, CONFIG, scenario)


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
