"""The one state machine for a process's status. No dependencies; every status shown comes from here.

stopped --start--> starting --spawned--> running --ready--> healthy <--> unhealthy
running/healthy/unhealthy --stop--> stopping --ended--> stopped
running/healthy/unhealthy --exit--> exited (success code) | backoff (will restart) | failed
backoff --retry--> starting ; backoff --stop--> stopped
"""

from __future__ import annotations

STOPPED = "stopped"
STARTING = "starting"
RUNNING = "running"
HEALTHY = "healthy"
UNHEALTHY = "unhealthy"
STOPPING = "stopping"
EXITED = "exited"
FAILED = "failed"
BACKOFF = "backoff"

ALL = (STOPPED, STARTING, RUNNING, HEALTHY, UNHEALTHY, STOPPING, EXITED, FAILED, BACKOFF)
# Statuses in which a process (or container) of ours is alive.
ALIVE = frozenset({STARTING, RUNNING, HEALTHY, UNHEALTHY, STOPPING})
# Statuses in which nothing runs and nothing will run without a new start.
AT_REST = frozenset({STOPPED, EXITED, FAILED})
UP = frozenset({RUNNING, HEALTHY, UNHEALTHY})

TRANSITIONS: dict[str, frozenset[str]] = {
    STOPPED: frozenset({STARTING}),
    STARTING: frozenset({RUNNING, STOPPING, EXITED, FAILED, BACKOFF, STOPPED}),
    RUNNING: frozenset({HEALTHY, UNHEALTHY, STOPPING, EXITED, FAILED, BACKOFF}),
    HEALTHY: frozenset({UNHEALTHY, STOPPING, EXITED, FAILED, BACKOFF}),
    UNHEALTHY: frozenset({HEALTHY, STOPPING, EXITED, FAILED, BACKOFF}),
    STOPPING: frozenset({STOPPED}),
    EXITED: frozenset({STARTING}),
    FAILED: frozenset({STARTING}),
    BACKOFF: frozenset({STARTING, STOPPED}),
}


class InvalidTransition(Exception):
    """A transition the state machine does not allow (a bug in the caller)."""


def check(current: str, new: str) -> None:
    """Raise InvalidTransition unless current -> new is allowed."""
    if new not in TRANSITIONS[current]:
        raise InvalidTransition(f"{current} -> {new}")


# Statuses in which a dependency's condition holds (a finished one-shot has started).
CONDITION_MET: dict[str, frozenset[str]] = {
    "started": frozenset({RUNNING, HEALTHY, UNHEALTHY, EXITED}),
    "healthy": frozenset({HEALTHY}),
    "completed_successfully": frozenset({EXITED}),
}
# Statuses of a dependency that died or was stopped: its dependents are told.
DOWN = frozenset({STOPPING, STOPPED, FAILED, BACKOFF})


def condition_met(condition: str, status: str) -> bool:
    return status in CONDITION_MET[condition]


def dependency_down(condition: str, status: str) -> bool:
    """The dependency died or was stopped (a service waited on as healthy that exited, too)."""
    return status in DOWN or (status == EXITED and condition == "healthy")


def failed_start(user_start: bool, status: str, has_check: bool, ever_healthy: bool) -> bool:
    """A run the user started that ends before it was known good (during the start grace
    period, or with a health check before it ever passed) is failed, not restarted."""
    return user_start and (status == STARTING or (has_check and not ever_healthy))


def start_settled(status: str, has_check: bool) -> bool:
    """A start (or restart) can answer: known good (healthy; up, without a health check)
    or known bad (ended, unhealthy)."""
    return status != STARTING and not (has_check and status == RUNNING)


def done_for_up(status: str, same_definition: bool) -> bool:
    """`up` leaves alone a one-shot that completed successfully in this supervisor's life
    and whose definition did not change since."""
    return status == EXITED and same_definition


def crashed_run(status: str | None, runs: int, restarts: int) -> int | None:
    """The newest run that ended badly: the last one while in backoff or failed; the one
    before the current run when that run is a restart."""
    if status in (BACKOFF, FAILED) and runs >= 1:
        return runs
    if status in ALIVE and restarts > 0 and runs > 1:
        return runs - 1
    return None


def exit_status(code: int | None, success_codes: tuple[int, ...], will_restart: bool) -> str:
    """Where a process goes when it ends by itself: backoff, exited or failed."""
    if will_restart:
        return BACKOFF
    return EXITED if code is not None and code in success_codes else FAILED


def should_restart(policy: str, code: int | None, success_codes: tuple[int, ...]) -> bool:
    """Whether the restart policy asks for another run after this exit (budget aside)."""
    if policy == "always":
        return True
    if policy == "on-failure":
        return code is None or code not in success_codes
    return False


def backoff_delay(restarts: int, initial: float, maximum: float) -> float:
    """Delay before restart number `restarts` (1-based): initial, doubling, capped at maximum."""
    return float(min(maximum, initial * (2 ** max(0, restarts - 1))))
