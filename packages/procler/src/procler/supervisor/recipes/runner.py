"""Running a recipe's steps in order, checkpointing the run after every step change."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from agentcli.errors import AgentError
from procler import recipe_states as rs
from procler import states
from procler.config.model import Recipe, RecipeStep
from procler.contexts.base import OutputBatch
from procler.project import recipe_log_name
from procler.supervisor.recipes.records import RunRecords
from procler.supervisor.recipes.run_record import RunRecord, StepRecord, interrupt, step_prefix
from procler.supervisor.recipes.steps import (
    STREAMED,
    StepOutcome,
    condition_met,
    exec_outcome,
    run_step,
    step_processes,
)

if TYPE_CHECKING:
    from procler.supervisor.operations import Operations

log = logging.getLogger("procler.recipes")
RETRY_MAX = 30.0  # seconds: the longest delay between two attempts of a step


class RunControl:
    """A running run's handle: `recipe cancel` cancels the step it is in."""

    def __init__(self, run: RunRecord) -> None:
        self.run = run
        self.step: asyncio.Future[Any] | None = None

    def cancel(self) -> None:
        if self.step is not None:
            self.step.cancel()


async def execute(
    ops: Operations,
    records: RunRecords,
    recipe: Recipe,
    run: RunRecord,
    control: RunControl,
) -> None:
    """Run every step not finished yet; on_error stop skips the rest after a failure.

    The run is written before each step does its work (one transaction: the steps changed
    since the last write, the step now running) and when it ends. Nothing awaits between
    a step's end and the next write, so the database is never behind what the run did
    but for the step in progress, and a step costs one write, not two; a write that only
    moves idempotent steps may wait a few ms (records.CHECKPOINT_WITHIN), as a resume
    runs those again anyway."""
    clock = ops.clock
    failed = False
    changed: list[StepRecord] = []  # not written yet
    for record, step in zip(run.steps, recipe.steps, strict=True):
        if record.status in rs.FINISHED:
            failed = failed or (record.status == rs.FAILED and not record.ignored_error)
            continue
        changed.append(record)
        if failed and recipe.on_error == "stop" and step.when is None:
            # a step with `when` decides for itself (e.g. a cleanup)
            run.move_step(record, rs.SKIPPED, "an earlier step failed (on_error: stop)")
            continue
        why_not = condition_met(ops, step, {s.id: s.status for s in run.steps})
        if why_not is not None:
            record.output = f"when does not hold: {why_not}"
            run.move_step(record, rs.SKIPPED, record.output)
            continue
        run.move_step(record, rs.RUNNING)
        record.started_at, record.ended_at = clock.time(), None
        record.error, record.exit_code, record.output = None, None, ""
        record.attempts, record.transitions = 0, []
        if all(s.idempotent for s in changed):
            records.save_soon(run, changed)
        else:
            records.save(run, changed)
        changed = [record]
        mark = ops.event_mark()
        current = asyncio.ensure_future(_attempts(ops, run, step, record))
        control.step = current
        try:
            outcome = await current
        except asyncio.CancelledError:
            if not current.cancelled() or _cancelling():
                # the supervisor is stopping (RecipeEngine.interrupt_all): interrupted here
                record.ended_at = clock.time()
                interrupt(run, record)
                records.save(run, changed)
                raise
            record.error = "cancelled (recipe cancel)"
            run.move_step(record, rs.CANCELLED, record.error)
            _cancel_rest(run, record)
            run.move(rs.RUN_CANCELLED)
            run.error, run.ended_at = f"cancelled at step {record.id}", clock.time()
            records.save(run)
            return
        except AgentError as exc:
            _failed(run, record, exc, step.ignore_error)
            failed = failed or not step.ignore_error
        except Exception as exc:  # a bug: the run records it rather than dying silently
            log.exception("recipe %s step %s", run.recipe, record.id)
            _failed(run, record, exc, False)
            failed = True
        else:
            record.output, record.exit_code = outcome.output, outcome.exit_code
            record.truncated = outcome.truncated
            run.move_step(record, rs.SUCCEEDED)
        record.ended_at = clock.time()
        names = step_processes(ops, step)
        record.transitions = ops.events_since(mark, names) if names else []
        _log(ops, run, record)
    run.move(rs.RUN_FAILED if failed else rs.RUN_SUCCEEDED)
    failure = next((s for s in run.steps if s.status == rs.FAILED and not s.ignored_error), None)
    run.error = None if failure is None else f"step {failure.id} failed: {failure.error}"
    run.ended_at = clock.time()
    records.save(run, changed)


def _streamer(ops: Operations, run: RunRecord, record: StepRecord) -> Callable[[OutputBatch], None]:
    """Where a step's output goes as it comes: the log store under the recipe, each line
    marked with the step (what an interrupted step printed survives the supervisor)."""
    name, prefix = recipe_log_name(run.recipe), step_prefix(record.id)

    def put(batch: OutputBatch) -> None:
        texts = [prefix + text for text in batch.texts]
        ops.log_output(name, dataclasses.replace(batch, texts=texts))

    return put


def _log(ops: Operations, run: RunRecord, record: StepRecord) -> None:
    """The step's output (unless streamed), and its error, into the log store under the
    recipe."""
    now = ops.clock.time()
    lines = [step_prefix(record.id) + line for line in record.output.splitlines()]
    if lines and record.kind not in STREAMED:
        ops.log_output(recipe_log_name(run.recipe), OutputBatch("stdout", lines, now))
    if record.error:
        failed = f"[{record.id}] {record.status}: {record.error}"
        ops.log_output(recipe_log_name(run.recipe), OutputBatch("stderr", [failed], now))


async def _attempts(
    ops: Operations, run: RunRecord, step: RecipeStep, record: StepRecord
) -> StepOutcome:
    """The step, again after a failure while retries are left (the delay doubling from
    retry_delay, capped)."""
    while True:
        record.attempts += 1
        try:
            return await run_step(ops, step, _streamer(ops, run, record))
        except AgentError:
            if record.attempts > step.retries:
                raise
        await ops.clock.sleep(states.backoff_delay(record.attempts, step.retry_delay, RETRY_MAX))


def _cancelling() -> bool:
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def _cancel_rest(run: RunRecord, current: StepRecord) -> None:
    for step in run.steps[current.position + 1 :]:
        if step.status == rs.PENDING:
            run.move_step(step, rs.CANCELLED, f"the run was cancelled at step {current.id}")


def _failed(run: RunRecord, record: StepRecord, exc: Exception, ignored: bool) -> None:
    data = getattr(exc, "data", None)
    if isinstance(data, dict) and "stdout" in data:
        outcome = exec_outcome(data)
        record.output, record.exit_code = outcome.output, outcome.exit_code
        record.truncated = outcome.truncated
    record.error = str(exc)
    record.ignored_error = ignored
    run.move_step(record, rs.FAILED, record.error)
