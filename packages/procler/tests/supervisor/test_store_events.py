"""The event log: read back for a recipe step's transitions (after a mark, by name,
bounded), batched writes, and its bound per process."""

from __future__ import annotations

import asyncio
import math
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from procler.supervisor import state_store as store_module
from procler.supervisor.state_store import StateStore


def test_events_since_keeps_the_named_changes_after_the_mark_and_the_last_ones(
    tmp_path: Path,
) -> None:
    store = StateStore(tmp_path / "state.db")
    store.event("api", "stopped", "starting", "start requested")
    mark = store.event_mark()
    store.event("api", "starting", "running", "started")
    store.event("api", "running", "running", "desired stopped")  # no change: not kept
    store.event("worker", "stopped", "starting", "start requested")  # not named
    for i in range(3):
        store.event("api", "running", f"s{i}", "")
    changes = [(e["process"], e["from"], e["to"]) for e in store.events_since(mark, ["api"], 3)]
    assert changes == [("api", "running", "s0"), ("api", "running", "s1"), ("api", "running", "s2")]
    assert [e["to"] for e in store.events_since(mark, ["api", "worker"])] == [
        "running",
        "starting",
        "s0",
        "s1",
        "s2",
    ]
    store.close()


def test_events_since_stays_exact_past_what_each_process_keeps(tmp_path: Path) -> None:
    store = StateStore(tmp_path / "state.db")
    mark = store.event_mark()
    recorded = []
    for i in range(store_module.CHANGES_KEPT + 10):
        store.event("api", "running", f"a{i}", "")
        recorded.append(f"a{i}")
        if i % 3 == 0:
            store.event("worker", "running", f"w{i}", "")
            recorded.append(f"w{i}")
    newest = [e["to"] for e in store.events_since(mark, ["api", "worker"])]
    assert newest == recorded[-store_module.CHANGES_KEPT :]
    assert [e["to"] for e in store.events_since(store.event_mark(), ["api"])] == []
    store.close()


def test_a_batched_store_writes_a_turn_of_the_loop_later_and_reads_write_first(
    tmp_path: Path,
) -> None:
    path = tmp_path / "state.db"

    async def record() -> list[Any]:
        store = StateStore(path, batched=True)
        other = sqlite3.connect(path)  # what another process reading state.db sees
        seen = []
        store.event("api", "stopped", "starting", "start requested")
        store.save_process("api", "running", 1, 0, None)
        store.run_started("api", 1, 4242, 10.0)
        seen.append(other.execute("SELECT count(*) FROM event").fetchone()[0])
        await asyncio.sleep(0)  # the next turn: the three rows, in one transaction
        seen.append(other.execute("SELECT name, desired, runs FROM process").fetchall())
        seen.append(other.execute("SELECT name, run, pid, ended_at FROM run").fetchall())
        store.event("api", "starting", "running", "started")
        store.process("api")  # a read writes what is pending first
        seen.append(other.execute("SELECT dst FROM event ORDER BY rowid").fetchall())
        store.run_ended("api", 1, 11.0)
        store.run_started("api", 2, 4343, 11.5)  # one turn: a run's end is written after
        store.event("api", "running", "backoff", "exit code 1")  # its start (table by table)
        store.run_ended("api", 2, 12.0)
        store.close()  # and before it closes
        seen.append(other.execute("SELECT run, ended_at FROM run ORDER BY run").fetchall())
        seen.append(other.execute("SELECT dst FROM event ORDER BY rowid").fetchall())
        other.close()
        return seen

    assert asyncio.run(record()) == [
        0,
        [("api", "running", 1)],
        [("api", 1, 4242, None)],
        [("starting",), ("running",)],
        [(1, 11.0), (2, 12.0)],
        [("starting",), ("running",), ("backoff",)],
    ]
    store = StateStore(path, batched=True)  # no loop running: written at once
    store.event("api", "running", "stopping", "stop requested")
    other = sqlite3.connect(path)
    assert other.execute("SELECT count(*) FROM event").fetchone()[0] == 4
    other.close()
    store.close()


def test_a_batch_that_fails_is_rolled_back_whole_and_the_next_one_is_written(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def record() -> list[Any]:
        store = StateStore(tmp_path / "state.db", batched=True)
        store.event("api", "stopped", "starting", "start requested")
        store.run_started("api", 1, 4242, math.nan)  # SQLite stores NaN as NULL: refused
        await asyncio.sleep(0)
        store.event("api", "starting", "failed", "could not start")
        store.process("api")  # a read writes what is pending first
        written = [row[0] for row in store.db.execute("SELECT dst FROM event ORDER BY rowid")]
        seen = [written, store.db.in_transaction]
        store.close()
        return seen

    assert asyncio.run(record()) == [["failed"], False]
    assert [r.getMessage() for r in caplog.records] == ["state database: 2 rows not written"]


def test_each_process_keeps_its_newest_events_and_an_old_database_is_cut_at_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "EVENTS_KEPT", 5)
    monkeypatch.setattr(store_module, "PRUNE_EVERY", 3)
    store = StateStore(tmp_path / "state.db")
    for i in range(20):
        store.event("api", "running", f"s{i}", "")
    store.health_event("worker", 1, "starting", "healthy", "ok")
    store.exit_event("worker", 1, "running", {"code": 3, "signal": None, "reason": "exited"})

    def rows(name: str) -> list[str]:
        found = store.db.execute("SELECT dst FROM event WHERE name=? ORDER BY rowid", (name,))
        return [r[0] for r in found]

    # pruned after the 18th row to the newest 5, then two more
    assert rows("api") == [f"s{i}" for i in range(13, 20)]
    assert rows("worker") == ["healthy", "running"]  # another process's rows are its own
    store.db.executemany(
        "INSERT INTO event (ts, name, src, dst, reason) VALUES (0, 'api', 'x', ?, '')",
        [(f"old{i}",) for i in range(4)],
    )  # written by a store that kept everything
    store.close()
    again = StateStore(tmp_path / "state.db")
    found = again.db.execute("SELECT dst FROM event WHERE name='api' ORDER BY rowid")
    assert [r[0] for r in found] == ["s19", "old0", "old1", "old2", "old3"]
    again.close()


def test_a_database_from_before_the_completed_column_keeps_its_processes(tmp_path: Path) -> None:
    path = tmp_path / "state.db"
    old = sqlite3.connect(path)
    old.execute(
        "CREATE TABLE process (name TEXT PRIMARY KEY, desired TEXT NOT NULL DEFAULT 'stopped', "
        "runs INTEGER NOT NULL DEFAULT 0, restarts INTEGER NOT NULL DEFAULT 0, last_exit TEXT)"
    )
    old.execute("INSERT INTO process VALUES ('migrate', 'stopped', 1, 0, NULL)")
    old.commit()
    old.close()
    store = StateStore(path)
    try:
        assert store.process("migrate") == {
            "desired": "stopped",
            "runs": 1,
            "restarts": 0,
            "last_exit": None,
            "completed": None,
        }
        store.save_process("migrate", "stopped", 2, 0, None, "abc")
        assert store.process("migrate")["completed"] == "abc"
        store.end_session()  # `down`: the one-shots run again at the next `up`
        assert store.process("migrate")["completed"] is None
    finally:
        store.close()
