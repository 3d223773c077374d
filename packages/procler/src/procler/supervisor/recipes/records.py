"""Recipe runs in the state database: written before every step does its work and when the
run ends, so a supervisor that dies leaves the last checkpoint behind.

A checkpoint that only moves idempotent steps (start, stop, wait_for ...: what a resume
runs again anyway) may wait up to CHECKPOINT_WITHIN, gathered with the next ones: written
at once, it stood between a process step and the next (a tenth to a quarter of a
millisecond each, most of a step's own time). A checkpoint that ends or begins a step that
is not idempotent (exec, snippet), or ends the run, is written at once with what waits, so
a resume never runs such a step again because the database was behind. Every read writes
what waits first.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable
from typing import Any

from procler import recipe_states as rs
from procler.supervisor.recipes.run_record import RunRecord, StepRecord
from procler.supervisor.state_store import StateStore

_RUN_COLUMNS = (
    "run_id, recipe, definition_hash, status, started_at, ended_at, error, interrupted_step"
)
CHECKPOINT_WITHIN = 0.005  # seconds a checkpoint of idempotent steps may wait


class RunRecords:
    def __init__(self, store: StateStore) -> None:
        self.db = store.db
        # The run row last written of each run in progress: a step's checkpoint leaves an
        # unchanged one alone (half the pages of its transaction).
        self._written: dict[str, tuple[Any, ...]] = {}
        # run id -> (the run, its steps waiting to be written by position): see save_soon
        self._waiting: dict[str, tuple[RunRecord, dict[int, StepRecord]]] = {}
        self._write_soon: asyncio.TimerHandle | None = None

    def save_soon(self, run: RunRecord, steps: Iterable[StepRecord]) -> None:
        """A checkpoint of idempotent steps: written within CHECKPOINT_WITHIN (see above)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop: nothing would write it later
            self.save(run, steps)
            return
        waiting = self._waiting.setdefault(run.run_id, (run, {}))[1]
        waiting.update((step.position, step) for step in steps)
        if self._write_soon is None:
            self._write_soon = loop.call_later(CHECKPOINT_WITHIN, self.flush)

    def flush(self) -> None:
        """Write every checkpoint that waits."""
        if self._write_soon is not None:
            self._write_soon.cancel()
            self._write_soon = None
        for run, _ in list(self._waiting.values()):
            self.save(run, ())

    def save(self, run: RunRecord, steps: Iterable[StepRecord] | None = None) -> None:
        """The run (if it changed) and its steps (those given, or all of them), with its
        steps that wait (save_soon), in one transaction."""
        waiting = self._waiting.pop(run.run_id, (run, {}))[1]
        if steps is not None:
            waiting.update((step.position, step) for step in steps)
            steps = waiting.values()
        row = (
            run.run_id,
            run.recipe,
            run.definition_hash,
            run.status,
            run.started_at,
            run.ended_at,
            run.error,
            run.interrupted_step,
        )
        self.db.execute("BEGIN")
        try:
            if self._written.get(run.run_id) != row:
                self.db.execute(
                    f"INSERT OR REPLACE INTO recipe_run ({_RUN_COLUMNS}) VALUES (?,?,?,?,?,?,?,?)",
                    row,
                )
            self.db.executemany(
                "INSERT OR REPLACE INTO recipe_step VALUES (?, ?, ?)",
                [
                    (run.run_id, s.position, json.dumps(s.__dict__, sort_keys=True))
                    for s in (run.steps if steps is None else steps)
                ],
            )
        except BaseException:
            self.db.execute("ROLLBACK")
            self._written.pop(run.run_id, None)
            raise
        self.db.execute("COMMIT")
        if run.status != rs.RUN_RUNNING:  # ended: its row changes no more
            self._written.pop(run.run_id, None)
        else:
            self._written[run.run_id] = row

    def load(self, run_id: str) -> RunRecord | None:
        self.flush()
        row = self.db.execute(
            f"SELECT {_RUN_COLUMNS} FROM recipe_run WHERE run_id=?", (run_id,)
        ).fetchone()
        return None if row is None else self._run(row)

    def runs(self, recipe: str | None = None, limit: int = 50) -> list[RunRecord]:
        """The latest runs (of one recipe, or of all), newest first."""
        self.flush()
        where, args = ("WHERE recipe=?", (recipe,)) if recipe else ("", ())
        rows = self.db.execute(
            f"SELECT {_RUN_COLUMNS} FROM recipe_run {where} "
            "ORDER BY started_at DESC, rowid DESC LIMIT ?",
            (*args, limit),
        ).fetchall()
        return [self._run(row) for row in rows]

    def with_status(self, status: str) -> list[RunRecord]:
        self.flush()
        rows = self.db.execute(
            f"SELECT {_RUN_COLUMNS} FROM recipe_run WHERE status=?", (status,)
        ).fetchall()
        return [self._run(row) for row in rows]

    def _run(self, row: tuple[Any, ...]) -> RunRecord:
        steps = self.db.execute(
            "SELECT record FROM recipe_step WHERE run_id=? ORDER BY position", (row[0],)
        ).fetchall()
        return RunRecord(
            run_id=row[0],
            recipe=row[1],
            definition_hash=row[2],
            status=row[3],
            started_at=row[4],
            ended_at=row[5],
            error=row[6],
            interrupted_step=row[7],
            steps=[StepRecord(**json.loads(s[0])) for s in steps],
        )
