"""Statuses of a recipe run and of its steps. No dependencies (a sibling of procler.states).

A run:   running --ends--> succeeded | failed | cancelled
         running --the supervisor died--> interrupted --resume--> running
A step:  pending --> running --> succeeded | failed | cancelled
         pending --> skipped | cancelled ; cancelled --resume re-runs it--> running
         cancelled/pending --resume --skip-step--> skipped
"""

from __future__ import annotations

from procler.states import READY_MEANING, InvalidTransition

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

# What each status of a run means (capabilities `terms`, and the recipe docs).
TERMS = {
    "recipe run succeeded": "every step succeeded, was skipped, or failed with ignore_error",
    "recipe run failed": "a step failed on its own (its command, its process or its "
    "condition; error, exit_code and output name it); the run is over and is not resumed: "
    "fix the cause and run the recipe again",
    "recipe run interrupted": "the run lost its supervisor (daemon stop, daemon restart, a "
    "crash or kill -9) while a step was going on: that step is `interrupted_step` (cancelled, "
    "its output kept) and the steps after it did not run; `procler recipe resume RUN_ID` "
    "goes on from the first unfinished step (an interrupted step that is not idempotent, an "
    "exec, needs --from-step or --skip-step)",
    "recipe run cancelled": "`procler recipe cancel` stopped it at the step it was in",
}


def check_run(current: str, new: str) -> None:
    """Raise InvalidTransition unless a run may go current -> new."""
    if new not in RUN_TRANSITIONS[current]:
        raise InvalidTransition(f"recipe run {current} -> {new}")


def check_step(current: str, new: str) -> None:
    """Raise InvalidTransition unless a step may go current -> new."""
    if new not in STEP_TRANSITIONS[current]:
        raise InvalidTransition(f"recipe step {current} -> {new}")


# capabilities' `terms`: the words answers use with a precise meaning
GLOSSARY = {"ready": READY_MEANING, **TERMS}
