"""Statuses of a recipe run and of its steps. No dependencies (a sibling of procler.states).

A run:   running --ends--> succeeded | failed | cancelled
         running --the supervisor died--> interrupted --resume--> running
A step:  pending --> running --> succeeded | failed | cancelled
         pending --> skipped | cancelled ; cancelled --resume re-runs it--> running
         cancelled/pending --resume --skip-step--> skipped
"""

from __future__ import annotations

from procler.states import InvalidTransition

RUN_RUNNING = "running"
RUN_SUCCEEDED = "succeeded"
RUN_FAILED = "failed"
RUN_INTERRUPTED = "interrupted"
RUN_CANCELLED = "cancelled"
RUN_STATUSES = (RUN_RUNNING, RUN_SUCCEEDED, RUN_FAILED, RUN_INTERRUPTED, RUN_CANCELLED)

RUN_TRANSITIONS: dict[str, frozenset[str]] = {
    RUN_RUNNING: frozenset({RUN_SUCCEEDED, RUN_FAILED, RUN_INTERRUPTED, RUN_CANCELLED}),
    RUN_INTERRUPTED: frozenset({RUN_RUNNING}),
    RUN_SUCCEEDED: frozenset(),
    RUN_FAILED: frozenset(),
    RUN_CANCELLED: frozenset(),
}

PENDING = "pending"
RUNNING = "running"
SUCCEEDED = "succeeded"
FAILED = "failed"
SKIPPED = "skipped"
CANCELLED = "cancelled"
STEP_STATUSES = (PENDING, RUNNING, SUCCEEDED, FAILED, SKIPPED, CANCELLED)

STEP_TRANSITIONS: dict[str, frozenset[str]] = {
    PENDING: frozenset({RUNNING, SKIPPED, CANCELLED}),
    RUNNING: frozenset({SUCCEEDED, FAILED, CANCELLED}),
    CANCELLED: frozenset({RUNNING, SKIPPED}),
    SUCCEEDED: frozenset(),
    FAILED: frozenset(),
    SKIPPED: frozenset(),
}
# Steps a resume does not run again.
FINISHED = frozenset({SUCCEEDED, FAILED, SKIPPED})


def check_run(current: str, new: str) -> None:
    """Raise InvalidTransition unless a run may go current -> new."""
    if new not in RUN_TRANSITIONS[current]:
        raise InvalidTransition(f"recipe run {current} -> {new}")


def check_step(current: str, new: str) -> None:
    """Raise InvalidTransition unless a step may go current -> new."""
    if new not in STEP_TRANSITIONS[current]:
        raise InvalidTransition(f"recipe step {current} -> {new}")
