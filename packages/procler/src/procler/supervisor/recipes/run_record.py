"""A recipe run and its steps as records: statuses move only as procler.recipe_states allows."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from procler import recipe_states as rs
from procler.config.model import Recipe

LAST_LINES = 5  # output lines a failure message quotes


def step_prefix(step_id: str) -> str:
    """What marks a step's lines in the recipe's log."""
    return f"[{step_id}] "


# id(recipe) -> (the recipe, its digest): a run starts with it, and asdict of 20 steps
# costs more than half a millisecond. Bounded: cleared once reloads leave this many.
_HASHES: dict[int, tuple[Recipe, str]] = {}
HASHES_KEPT = 1000


def definition_hash(recipe: Recipe) -> str:
    """A digest of the recipe as defined: resume refuses a run whose recipe changed since."""
    known = _HASHES.get(id(recipe))
    if known is not None and known[0] is recipe:
        return known[1]
    if len(_HASHES) >= HASHES_KEPT:
        _HASHES.clear()
    text = json.dumps(dataclasses.asdict(recipe), sort_keys=True)
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    _HASHES[id(recipe)] = (recipe, digest)
    return digest


@dataclass
class StepRecord:
    position: int
    id: str
    kind: str
    target: str
    idempotent: bool
    status: str = rs.PENDING
    started_at: float | None = None
    ended_at: float | None = None
    exit_code: int | None = None
    output: str = ""
    truncated: bool = False
    error: str | None = None
    ignored_error: bool = False  # failed with ignore_error: the run goes on as if it passed
    attempts: int = 0  # 1 + the retries it took
    # The status changes of the processes the step acts on while it ran, each
    # {process, from, to, at}: when a start forked (starting) and came up, when a stop
    # signalled (stopping) and saw the run end.
    transitions: list[dict[str, Any]] = field(default_factory=list)

    def move(self, new: str) -> None:
        rs.check_step(self.status, new)
        self.status = new

    def last_lines(self) -> list[str]:
        return self.output.splitlines()[-LAST_LINES:]

    def as_dict(self) -> dict[str, Any]:
        """The step as plain data, in field order (its own copy of the transitions)."""
        return {**self.__dict__, "transitions": [dict(t) for t in self.transitions]}


# Told of every step move: the run, the step (already moved), the status it left, why.
StepObserver = Callable[["RunRecord", StepRecord, str, str], None]


@dataclass
class RunRecord:
    run_id: str
    recipe: str
    definition_hash: str
    started_at: float
    status: str = rs.RUN_RUNNING
    ended_at: float | None = None
    error: str | None = None
    interrupted_step: str | None = None
    steps: list[StepRecord] = field(default_factory=list)
    # The supervisor's event bus (set by the recipe engine); not part of the record.
    observer: StepObserver | None = field(default=None, repr=False, compare=False)

    def move(self, new: str) -> None:
        rs.check_run(self.status, new)
        self.status = new

    def move_step(self, step: StepRecord, new: str, reason: str = "") -> None:
        """Every step status change goes through here, so each one is published."""
        src = step.status
        step.move(new)
        if self.observer is not None:
            self.observer(self, step, src, reason)

    def first_unfinished(self) -> StepRecord | None:
        return next((s for s in self.steps if s.status not in rs.FINISHED), None)

    def as_dict(self) -> dict[str, Any]:
        """The run as plain data, in field order (an answer: built by hand, as
        dataclasses.asdict took a millisecond for 20 steps)."""
        record = {name: getattr(self, name) for name in _RUN_FIELDS}
        record["steps"] = [step.as_dict() for step in self.steps]
        return record


_RUN_FIELDS = [f.name for f in dataclasses.fields(RunRecord) if f.name not in ("steps", "observer")]


def new_run(run_id: str, recipe: Recipe, now: float) -> RunRecord:
    steps = [
        StepRecord(i, s.id, s.kind, s.target or f"{s.seconds:g}s", s.idempotent)
        for i, s in enumerate(recipe.steps)
    ]
    return RunRecord(run_id, recipe.name, definition_hash(recipe), now, steps=steps)


def interrupt(run: RunRecord, step: StepRecord | None) -> None:
    """The run lost its supervisor during `step` (None: between steps): interrupted there,
    resumable (see procler.recipe_states.TERMS)."""
    if step is not None:
        step.error = "interrupted: the supervisor stopped during this step"
        run.move_step(step, rs.CANCELLED, step.error)
        run.interrupted_step = step.id
    run.move(rs.RUN_INTERRUPTED)
    run.error = "the supervisor stopped during the run" + (
        f" (at step {step.id})" if step is not None else ""
    )
