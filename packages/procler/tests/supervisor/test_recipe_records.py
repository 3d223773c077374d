"""Recipe checkpoints: those of idempotent steps gathered for a few ms, the rest at once,
and every read writing what waits first."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

from procler import recipe_states as rs
from procler.supervisor.recipes import records as records_module
from procler.supervisor.recipes.records import RunRecords
from procler.supervisor.recipes.run_record import RunRecord, StepRecord
from procler.supervisor.state_store import StateStore


def a_run() -> RunRecord:
    steps = [
        StepRecord(0, "stop-1", "stop", "api", True),
        StepRecord(1, "wait_for-2", "wait_for", "api", True),
        StepRecord(2, "migrate", "exec", "./migrate", False),
    ]
    return RunRecord("deploy-1", "deploy", "abc", 1.0, steps=steps)


def written(path: Path) -> list[tuple[int, str]]:
    """What another process reading state.db sees of the run's steps."""
    db = sqlite3.connect(path)
    try:
        rows = db.execute("SELECT position, record FROM recipe_step ORDER BY position").fetchall()
    finally:
        db.close()
    return [(pos, StepRecord(**json.loads(rec)).status) for pos, rec in rows]


def test_idempotent_checkpoints_wait_a_little_and_the_others_write_them_at_once(
    tmp_path: Path,
) -> None:
    path = tmp_path / "state.db"

    async def checkpoints() -> list[object]:
        store = StateStore(path, batched=True)
        records = RunRecords(store)
        run = a_run()
        records.save(run)  # the run begins: every step, at once
        seen: list[object] = [written(path)]
        first, second, third = run.steps
        first.move(rs.RUNNING)
        records.save_soon(run, [first])
        await asyncio.sleep(0)
        seen.append(written(path))  # still waiting
        await asyncio.sleep(2 * records_module.CHECKPOINT_WITHIN)
        seen.append(written(path))  # written
        first.move(rs.SUCCEEDED)
        second.move(rs.RUNNING)
        records.save_soon(run, [first, second])
        second.move(rs.SUCCEEDED)
        third.move(rs.RUNNING)
        records.save(run, [second, third])  # an exec begins: with what waits, at once
        seen.append(written(path))
        third.move(rs.SUCCEEDED)
        records.save_soon(run, [third])
        loaded = records.load(run.run_id)  # a read writes what waits first
        assert loaded is not None
        seen.append([s.status for s in loaded.steps])
        store.close()
        return seen

    pending = [(0, "pending"), (1, "pending"), (2, "pending")]
    assert asyncio.run(checkpoints()) == [
        pending,
        pending,
        [(0, "running"), (1, "pending"), (2, "pending")],
        [(0, "succeeded"), (1, "succeeded"), (2, "running")],
        ["succeeded", "succeeded", "succeeded"],
    ]
