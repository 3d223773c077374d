"""The schedules' part of the state database: the last slot each schedule accounted for
(what `catch_up` compares with), the skipped count, and the run history."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from procler.supervisor.clock import iso

if TYPE_CHECKING:
    from procler.config.model import Schedule

SCHEMA = """
CREATE TABLE IF NOT EXISTS schedule (
    name TEXT PRIMARY KEY, last_slot REAL, skipped INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS schedule_run (
    name TEXT NOT NULL, slot REAL, trigger TEXT NOT NULL, started_at REAL NOT NULL,
    ended_at REAL, exit_code INTEGER, signal INTEGER, reason TEXT
);
"""
HISTORY = 200  # runs kept per process
LOST = "supervisor_lost"


class ScheduleStore:
    """Reads and writes the schedule tables of the supervisor's current database (the
    database is opened anew when the state directory is written again)."""

    def __init__(self, connection: Callable[[], sqlite3.Connection]) -> None:
        self._connection = connection
        self._ready: sqlite3.Connection | None = None

    def _db(self) -> sqlite3.Connection:
        db = self._connection()
        if db is not self._ready:
            db.executescript(SCHEMA)
            self._ready = db
        return db

    def last_slot(self, name: str) -> float | None:
        row = self._db().execute("SELECT last_slot FROM schedule WHERE name=?", (name,)).fetchone()
        return None if row is None else row[0]

    def skipped(self, name: str) -> int:
        row = self._db().execute("SELECT skipped FROM schedule WHERE name=?", (name,)).fetchone()
        return 0 if row is None else int(row[0])

    def set_last_slot(self, name: str, slot: float) -> None:
        self._db().execute(
            "INSERT INTO schedule (name, last_slot) VALUES (?, ?) "
            "ON CONFLICT(name) DO UPDATE SET last_slot=excluded.last_slot",
            (name, slot),
        )

    def count_skip(self, name: str) -> None:
        self._db().execute(
            "INSERT INTO schedule (name, skipped) VALUES (?, 1) "
            "ON CONFLICT(name) DO UPDATE SET skipped=skipped + 1",
            (name,),
        )

    def run_started(self, name: str, slot: float | None, trigger: str, at: float) -> int:
        db = self._db()
        cursor = db.execute(
            "INSERT INTO schedule_run (name, slot, trigger, started_at) VALUES (?, ?, ?, ?)",
            (name, slot, trigger, at),
        )
        db.execute(
            "DELETE FROM schedule_run WHERE name=? AND rowid NOT IN "
            "(SELECT rowid FROM schedule_run WHERE name=? ORDER BY rowid DESC LIMIT ?)",
            (name, name, HISTORY),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def run_ended(self, row: int, at: float, last_exit: dict[str, Any] | None) -> None:
        last_exit = last_exit or {}
        self._db().execute(
            "UPDATE schedule_run SET ended_at=?, exit_code=?, signal=?, reason=? WHERE rowid=?",
            (at, last_exit.get("code"), last_exit.get("signal"), last_exit.get("reason"), row),
        )

    def close_lost(self, at: float) -> int:
        """Runs a dead supervisor never saw end: ended now, reason supervisor_lost."""
        cursor = self._db().execute(
            "UPDATE schedule_run SET ended_at=?, reason=? WHERE ended_at IS NULL", (at, LOST)
        )
        return cursor.rowcount

    def runs(self, name: str) -> int:
        row = self._db().execute("SELECT COUNT(*) FROM schedule_run WHERE name=?", (name,))
        return int(row.fetchone()[0])

    def history(self, name: str, limit: int = HISTORY) -> list[dict[str, Any]]:
        """The newest runs first: start, end, exit, duration, trigger."""
        rows = (
            self._db()
            .execute(
                "SELECT slot, trigger, started_at, ended_at, exit_code, signal, reason "
                "FROM schedule_run WHERE name=? ORDER BY rowid DESC LIMIT ?",
                (name, limit),
            )
            .fetchall()
        )
        return [
            {
                "trigger": trigger,
                "slot": iso(slot),
                "started_at": iso(started),
                "ended_at": iso(ended),
                "duration_seconds": None if ended is None else round(ended - started, 3),
                "exit_code": code,
                "signal": sig,
                "reason": reason,
            }
            for slot, trigger, started, ended, code, sig, reason in rows
        ]


def summary(
    store: ScheduleStore,
    name: str,
    schedule: Schedule,
    next_run: float | None,
    queued: bool = False,
    runs: int = 0,
) -> dict[str, Any]:
    """The `schedule` part of a process's status (from a supervisor, or from disk: there
    no run is next, since nothing fires without a supervisor). `runs`: history rows."""
    history = store.history(name, max(1, runs))
    out: dict[str, Any] = {
        "schedule": schedule.written,
        "timezone": schedule.timezone,
        "overlap": schedule.overlap,
        "catch_up": schedule.catch_up,
        "timeout_seconds": schedule.timeout,
        "paused": next_run is None,
        "next_run": iso(next_run),
        "last_run": history[0] if history else None,
        "runs": store.runs(name),
        "skipped": store.skipped(name),
        "queued": queued,
    }
    if runs:
        out["history"] = history[:runs]
    return out
