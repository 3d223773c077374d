"""Persistent supervisor state in SQLite: desired state, runs, counters, events, settings,
and recipe runs with their steps (read and written by supervisor.recipes.records).

The event table holds three kinds of row: `status` (a transition, or a note when from and
to are the same), `health` (a move of a run's health verdict) and `exit` (a value the
process's last_exit took: how a run ended, or that a start failed), each with its run.

The supervisor's store is `batched`: the transitions, counters and runs recorded during one
turn of the event loop are written at the start of the next turn in one transaction (a burst
of 1,000 starts made 5,000 commits of their own, most of the supervisor's SQLite time). Each
row is written after what it records happened, so the database may lag the supervisor by
one turn (a kill -9 in that turn loses it) but never claims a transition, a run or a desired
state that was not reached; every read, and every command's answer, writes them first.
Not longer than a turn: `procler logs` reads the runs of state.db itself, and right after a
restart it must see the new run.
"""

from __future__ import annotations

import itertools
import json
import os
import sqlite3
import time
from collections import Counter, deque
from collections.abc import Callable
from operator import itemgetter
from pathlib import Path
from typing import Any

from procler import project
from procler.states import NEVER_RAN

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS process (
    name TEXT PRIMARY KEY,
    desired TEXT NOT NULL DEFAULT 'stopped',
    runs INTEGER NOT NULL DEFAULT 0,
    restarts INTEGER NOT NULL DEFAULT 0,
    last_exit TEXT
);
CREATE TABLE IF NOT EXISTS run (
    name TEXT NOT NULL,
    run INTEGER NOT NULL,
    pid INTEGER,
    started_at REAL NOT NULL,
    ended_at REAL,
    PRIMARY KEY (name, run)
);
CREATE TABLE IF NOT EXISTS recipe_run (
    run_id TEXT PRIMARY KEY,
    recipe TEXT NOT NULL,
    definition_hash TEXT NOT NULL,
    status TEXT NOT NULL,
    started_at REAL NOT NULL,
    ended_at REAL,
    error TEXT,
    interrupted_step TEXT
);
CREATE TABLE IF NOT EXISTS recipe_step (
    run_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (run_id, position)
);
CREATE TABLE IF NOT EXISTS event (
    ts REAL NOT NULL, name TEXT NOT NULL, src TEXT NOT NULL, dst TEXT NOT NULL, reason TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS event_by_name ON event (name);
"""
# The event table is bounded: each process keeps its newest EVENTS_KEPT rows (a crash loop
# left for days would otherwise grow it without end). Older ones are deleted after every
# PRUNE_EVERY rows of that process, and at open for a database that holds more.
EVENTS_KEPT = 2000
PRUNE_EVERY = 200
_PRUNE = (
    "DELETE FROM event WHERE name = ? AND rowid <= "
    "(SELECT rowid FROM event WHERE name = ? ORDER BY rowid DESC LIMIT 1 OFFSET ?)"
)
# Columns the event table gained after its first release: added to an older database when
# it is opened (its rows are status rows whose run is not known).
EVENT_COLUMNS = {
    "kind": "TEXT NOT NULL DEFAULT 'status'",
    "run": "INTEGER",
    "code": "INTEGER",
    "signal": "INTEGER",
}
# Likewise for the process table: `completed` is the definition hash (config/fingerprint.py)
# of a one-shot whose last run completed in this session (until `down` or `daemon stop`).
PROCESS_COLUMNS = {"completed": "TEXT"}


# events_since answers from memory: each process's newest CHANGES_KEPT status changes (its
# largest limit), numbered in the order they were recorded (the order of the event rows).
# A recipe step asks after each step; a commit and two queries for it were most of a
# step's own cost.
CHANGES_KEPT = 50


class StateStore:
    """A small typed facade over the project's state database."""

    def __init__(
        self, path: Path, batched: bool = False, now: Callable[[], float] = time.time
    ) -> None:
        # Created 0600 before SQLite opens it: SQLite gives its -wal and -shm the same mode,
        # and the database holds the environment captured at first start (tokens included).
        os.close(project.open_private(str(path), os.O_RDWR))
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)
        for table, columns in (("event", EVENT_COLUMNS), ("process", PROCESS_COLUMNS)):
            have = {row[1] for row in self.db.execute(f"PRAGMA table_info({table})")}
            for column, declared in columns.items():
                if column not in have:
                    self.db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declared}")
        for (name,) in self.db.execute(
            "SELECT name FROM event GROUP BY name HAVING COUNT(*) > ?", (EVENTS_KEPT,)
        ).fetchall():
            self.db.execute(_PRUNE, (name, name, EVENTS_KEPT))
        self._unpruned: Counter[str] = Counter()  # event rows per process since its prune
        self.batched = batched  # writes wait for the next turn of the loop (see above)
        self.now = now  # when an event happened: the supervisor's clock (its seam)
        self._pending: list[tuple[str, str, tuple[Any, ...]]] = []  # table, statement, row
        self._changes: dict[str, deque[tuple[int, float, str, str]]] = {}  # see CHANGES_KEPT
        self._changed = 0  # status changes recorded (the last one's number)

    def close(self) -> None:
        self.commit()
        self.db.close()

    def _write(self, table: str, sql: str, params: tuple[Any, ...]) -> None:
        if not self.batched:
            self.db.execute(sql, params)
            return
        if not self._pending:
            import asyncio  # a batched store lives in the supervisor's loop; the CLI's
            # answers from disk write at once, without loading asyncio (30 modules)

            try:
                asyncio.get_running_loop().call_soon(self.commit)
            except RuntimeError:  # no loop running: nothing would write it later
                self.db.execute(sql, params)
                return
        self._pending.append((table, sql, params))

    def commit(self) -> None:
        """Write the rows recorded since the last commit, in one transaction: table by
        table, each table's in the order they were recorded (the order that matters: event
        rowids, a run's end after its start, the last counters of a process), as one
        executemany per run of the same statement."""
        if not self._pending:
            return
        pending, self._pending = self._pending, []
        pending.sort(key=itemgetter(0))  # stable: each table keeps its order
        try:
            self.db.execute("BEGIN")
            for sql, rows in itertools.groupby(pending, key=itemgetter(1)):
                self.db.executemany(sql, [row[2] for row in rows])
            self.db.execute("COMMIT")
        except sqlite3.Error:  # e.g. a full disk: the next turn's rows get a transaction
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            import logging  # here only: the CLI reads the store without the logging package

            logging.getLogger("procler.supervisor").exception(
                "state database: %d rows not written", len(pending)
            )

    def get_meta(self, key: str) -> Any:
        self.commit()
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def set_meta(self, key: str, value: Any) -> None:
        self._write("meta", "INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, json.dumps(value)))

    def process(self, name: str) -> dict[str, Any]:
        self.commit()
        row = self.db.execute(
            "SELECT desired, runs, restarts, last_exit, completed FROM process WHERE name=?",
            (name,),
        ).fetchone()
        if row is None:
            return dict(NEVER_RAN)
        return {
            "desired": row[0],
            "runs": row[1],
            "restarts": row[2],
            "last_exit": json.loads(row[3]) if row[3] else None,
            "completed": row[4],
        }

    def save_process(
        self,
        name: str,
        desired: str,
        runs: int,
        restarts: int,
        last_exit: dict[str, Any] | None,
        completed: str | None = None,
    ) -> None:
        """completed: see PROCESS_COLUMNS."""
        self._write(
            "process",
            "INSERT OR REPLACE INTO process (name, desired, runs, restarts, last_exit, completed)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (
                name,
                desired,
                runs,
                restarts,
                json.dumps(last_exit) if last_exit else None,
                completed,
            ),
        )

    def end_session(self) -> None:
        """`down` or `daemon stop`: the next `up` runs the one-shots again."""
        self._write("process", "UPDATE process SET completed=NULL", ())

    def run_started(self, name: str, run: int, pid: int | None, at: float) -> None:
        self._write(
            "run", "INSERT OR REPLACE INTO run VALUES (?, ?, ?, ?, NULL)", (name, run, pid, at)
        )

    def run_ended(self, name: str, run: int, at: float) -> None:
        self._write("run", "UPDATE run SET ended_at=? WHERE name=? AND run=?", (at, name, run))

    def open_runs(self) -> list[tuple[str, int, int | None]]:
        """Runs a previous supervisor started and never saw end (it died)."""
        self.commit()
        rows = self.db.execute("SELECT name, run, pid FROM run WHERE ended_at IS NULL").fetchall()
        return [(r[0], r[1], r[2]) for r in rows]

    def event(self, name: str, src: str, dst: str, reason: str, run: int | None = None) -> None:
        """A status transition (or, from == to, a note) of the process's run."""
        ts = self.now()
        self._write(
            "event",
            "INSERT INTO event (ts, name, src, dst, reason, run) VALUES (?, ?, ?, ?, ?, ?)",
            (ts, name, src, dst, reason, run),
        )
        self._counted(name)
        if src != dst:
            self._changed += 1
            kept = self._changes.get(name)
            if kept is None:
                kept = self._changes[name] = deque(maxlen=CHANGES_KEPT)
            kept.append((self._changed, ts, src, dst))

    def health_event(self, name: str, run: int, src: str, dst: str, reason: str) -> None:
        """A move of the run's health verdict."""
        self._write(
            "event",
            "INSERT INTO event (ts, name, src, dst, reason, kind, run) "
            "VALUES (?, ?, ?, ?, ?, 'health', ?)",
            (self.now(), name, src, dst, reason, run),
        )
        self._counted(name)

    def exit_event(
        self, name: str, run: int | None, status: str, last_exit: dict[str, Any]
    ) -> None:
        """A new last_exit (status: the process's status when it was taken)."""
        self._write(
            "event",
            "INSERT INTO event (ts, name, src, dst, reason, kind, run, code, signal) "
            "VALUES (?, ?, ?, ?, ?, 'exit', ?, ?, ?)",
            (
                self.now(),
                name,
                status,
                status,
                last_exit["reason"],
                run,
                last_exit["code"],
                last_exit["signal"],
            ),
        )
        self._counted(name)

    def _counted(self, name: str) -> None:
        self._unpruned[name] += 1
        if self._unpruned[name] >= PRUNE_EVERY:
            del self._unpruned[name]
            self._write("event", _PRUNE, (name, name, EVENTS_KEPT))

    def event_mark(self) -> int:
        """Where the status changes end now: events_since(mark) is what was recorded after."""
        return self._changed

    def events_since(self, mark: int, names: list[str], limit: int = 50) -> list[dict[str, Any]]:
        """The status changes of the named processes recorded after mark, oldest first:
        the last `limit` of them (a crash loop during a long wait records many). Exact up
        to CHANGES_KEPT: the last `limit` of all are among each process's last `limit`."""
        limit = min(limit, CHANGES_KEPT)
        found = sorted(
            (number, ts, name, src, dst)
            for name in dict.fromkeys(names)
            for number, ts, src, dst in self._changes.get(name, ())
            if number > mark
        )
        return [{"process": n, "from": s, "to": d, "at": t} for _, t, n, s, d in found[-limit:]]

    def newest_events(self, name: str, kind: str, limit: int) -> list[tuple[Any, ...]]:
        """The process's newest rows of one kind, newest first: (ts, run, from, to, reason,
        code, signal, the run's started_at or None)."""
        self.commit()
        return self.db.execute(
            "SELECT e.ts, e.run, e.src, e.dst, e.reason, e.code, e.signal, r.started_at "
            "FROM event e LEFT JOIN run r ON r.name = e.name AND r.run = e.run "
            "WHERE e.name = ? AND e.kind = ? ORDER BY e.rowid DESC LIMIT ?",
            (name, kind, limit),
        ).fetchall()
