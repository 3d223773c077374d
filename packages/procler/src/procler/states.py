"""Everything Procler knows about statuses. No dependencies; every status shown comes from here.

A process's status is one state machine:

stopped --start--> starting --spawned--> running --ready--> healthy <--> unhealthy
running/healthy/unhealthy --stop--> stopping --ended--> stopped
starting/running/healthy/unhealthy --exit--> exited (success code) | backoff (will restart) | failed
backoff --retry--> starting ; backoff --stop--> stopped
a run its liveness check ended: stopping --> backoff | failed (its restart policy decides)
a scheduled process: stopped/exited/failed --armed--> scheduled --slot--> starting ...;
its run ends --> scheduled (exited/failed once paused); scheduled --paused--> stopped

The health of one run is a second, smaller one (HEALTH_TRANSITIONS). The predicates
`wait` and dependency conditions ask of a status, and the decision taken when a run
ends by itself, live here too; the runtime applies them.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

STOPPED = "stopped"
STARTING = "starting"
RUNNING = "running"
HEALTHY = "healthy"
UNHEALTHY = "unhealthy"
STOPPING = "stopping"
EXITED = "exited"
FAILED = "failed"
BACKOFF = "backoff"
SCHEDULED = "scheduled"  # a scheduled process between runs, its schedule armed

ALL = (
    STOPPED,
    STARTING,
    RUNNING,
    HEALTHY,
    UNHEALTHY,
    STOPPING,
    EXITED,
    FAILED,
    BACKOFF,
    SCHEDULED,
)
# Statuses in which a process (or container) of ours is alive.
ALIVE = frozenset({STARTING, RUNNING, HEALTHY, UNHEALTHY, STOPPING})
# Statuses in which nothing runs and nothing will run without a new start.
AT_REST = frozenset({STOPPED, EXITED, FAILED})
UP = frozenset({RUNNING, HEALTHY, UNHEALTHY})

TRANSITIONS: dict[str, frozenset[str]] = {
    STOPPED: frozenset({STARTING, SCHEDULED}),
    STARTING: frozenset({RUNNING, EXITED, FAILED, BACKOFF, SCHEDULED}),
    RUNNING: frozenset({HEALTHY, UNHEALTHY, STOPPING, EXITED, FAILED, BACKOFF, SCHEDULED}),
    HEALTHY: frozenset({UNHEALTHY, STOPPING, EXITED, FAILED, BACKOFF, SCHEDULED}),
    UNHEALTHY: frozenset({HEALTHY, STOPPING, EXITED, FAILED, BACKOFF, SCHEDULED}),
    # besides stopped: the end of a run its liveness check failed (see after_liveness)
    STOPPING: frozenset({STOPPED, BACKOFF, FAILED, SCHEDULED}),
    EXITED: frozenset({STARTING, SCHEDULED}),
    FAILED: frozenset({STARTING, SCHEDULED}),
    BACKOFF: frozenset({STARTING, STOPPED}),
    SCHEDULED: frozenset({STARTING, STOPPED}),
}
# Where a scheduled process at rest can be armed from (start, resume, boot).
ARMABLE = frozenset({STOPPED, EXITED, FAILED})
# What a person's action can change from each status (the dashboard enables its buttons
# by these): start one at rest or waiting to restart; stop one that runs, waits to restart
# or waits for its next slot; restart one that is up or on its way.
CAN_START = frozenset({STOPPED, EXITED, FAILED, BACKOFF})
CAN_STOP = frozenset({STARTING, RUNNING, HEALTHY, UNHEALTHY, BACKOFF, SCHEDULED})
CAN_RESTART = frozenset({STARTING, RUNNING, HEALTHY, UNHEALTHY, BACKOFF})

# What the user last asked of a process (kept across supervisors).
DESIRED_RUNNING = "running"
DESIRED_STOPPED = "stopped"

# What is saved of a process that never ran (no row yet in the state database, or none).
NEVER_RAN: dict[str, Any] = {
    "desired": DESIRED_STOPPED,
    "runs": 0,
    "restarts": 0,
    "last_exit": None,
    "completed": None,
}


class InvalidTransition(Exception):
    """A transition a state machine does not allow (a bug in the caller)."""


def check(current: str, new: str) -> None:
    """Raise InvalidTransition unless current -> new is allowed."""
    if new not in TRANSITIONS[current]:
        raise InvalidTransition(f"{current} -> {new}")


# -- health of one run ----------------------------------------------------------------------

HEALTH_STARTING = "starting"  # probing, no verdict yet
HEALTH_HEALTHY = "healthy"
HEALTH_UNHEALTHY = "unhealthy"
HEALTH_STOPPED = "stopped"  # no run: unknown until the next one
HEALTH_TRANSITIONS: dict[str, frozenset[str]] = {
    HEALTH_STOPPED: frozenset({HEALTH_STARTING}),
    HEALTH_STARTING: frozenset({HEALTH_HEALTHY, HEALTH_UNHEALTHY, HEALTH_STOPPED}),
    HEALTH_HEALTHY: frozenset({HEALTH_UNHEALTHY, HEALTH_STOPPED}),
    HEALTH_UNHEALTHY: frozenset({HEALTH_HEALTHY, HEALTH_STOPPED}),
}
# The process status a health verdict moves an up process to.
HEALTH_TO_STATUS = {HEALTH_HEALTHY: HEALTHY, HEALTH_UNHEALTHY: UNHEALTHY}


def check_health(current: str, new: str) -> None:
    """Raise InvalidTransition unless the health verdict may go current -> new."""
    if new not in HEALTH_TRANSITIONS[current]:
        raise InvalidTransition(f"health {current} -> {new}")


# -- what `wait` and dependency conditions ask of a status ----------------------------------

# `wait --for CONDITION`: the statuses that meet it.
WAIT_MET: dict[str, frozenset[str]] = {
    RUNNING: UP,
    STOPPED: AT_REST,
    EXITED: frozenset({EXITED}),
    FAILED: frozenset({FAILED}),
    HEALTHY: frozenset({HEALTHY}),
    UNHEALTHY: frozenset({UNHEALTHY}),
}


def wait_met(condition: str, status: str) -> bool:
    """Whether a process in `status` meets `wait NAME --for condition`."""
    return status in WAIT_MET[condition]


def wait_impossible(condition: str, status: str, desired: str, has_healthcheck: bool) -> str | None:
    """Why a process can no longer meet `wait NAME --for condition` without a new start, or
    None while it still may (only `healthy` can be known to be out of reach)."""
    if condition != HEALTHY or wait_met(condition, status):
        return None
    if status == FAILED:
        return "it failed"
    if status == EXITED:
        return "it exited"
    if status == STOPPED and desired == DESIRED_STOPPED:
        return "it is stopped and nothing will start it"
    if not has_healthcheck:
        return "it has no health check"
    return None


def left_alone(autostart: bool, status: str, desired: str) -> bool:
    """A process `autostart: false` keeps out of the starts of many, at rest as nothing
    asked it to run: its status says why it does not run."""
    return not autostart and status in AT_REST and desired != DESIRED_RUNNING


# -- ready: the one definition `up --wait`, `ci` and `wait --group/--all --for healthy` share --

# A process without a health check is ready once it has stayed up this long, so one that
# dies a moment after its start is caught rather than reported ready.
READY_AFTER = 1.0


def ready(status: str, has_healthcheck: bool, uptime: float | None) -> bool:
    """A process counts as ready in a stack when it is healthy (it has a health check),
    up for READY_AFTER (it has none), completed (a one-shot that exited with a success
    code), or armed and waiting for its next slot (a scheduled process: `scheduled`)."""
    if status in (EXITED, SCHEDULED):
        return True
    if has_healthcheck:
        return status == HEALTHY
    return status in UP and (uptime or 0.0) >= READY_AFTER


READY_MEANING = (
    "a process is ready when it is healthy (it has a health check), up for "
    f"{READY_AFTER:g}s (it has none), completed (a one-shot that exited with a success code), "
    "or armed and waiting for its next slot (a scheduled process); `up --wait`, `ci` and "
    "`wait --group/--all --for healthy` wait for it"
)


def ready_condition(has_healthcheck: bool) -> str:
    """What `ready` asks of such a process, in words (for answers)."""
    what = "healthy" if has_healthcheck else f"up for {READY_AFTER:g}s"
    return f"{what}, completed, or scheduled"


def never_ready(status: str, desired: str) -> str | None:
    """Why a process will not get ready without a new start, if it will not."""
    if status == FAILED:
        return "it failed"
    if status == STOPPED and desired == DESIRED_STOPPED:
        return "it is stopped and nothing will start it"
    return None


# `depends_on: {condition}`: the statuses of the dependency that meet it.
DEPENDENCY_MET: dict[str, frozenset[str]] = {
    "started": UP | {EXITED, SCHEDULED},
    "healthy": frozenset({HEALTHY}),
    "log_ready": UP,  # and its run's output matched ready_log_line
    "completed_successfully": frozenset({EXITED}),
}


def dependency_met(condition: str, status: str, log_ready: bool) -> bool:
    """Whether a dependency in `status` (whose run has or has not logged its ready line)
    meets `condition`."""
    return status in DEPENDENCY_MET[condition] and (condition != "log_ready" or log_ready)


def dependency_impossible(condition: str, status: str) -> bool:
    """The dependency can no longer reach its condition without a new start."""
    if status in (FAILED, STOPPED):
        return True
    if condition == "healthy" and status == UNHEALTHY:
        return True  # unhealthy is only reported once start_period is over
    return condition != "completed_successfully" and status == EXITED


# Statuses of a dependency that died or was stopped: its dependents are told.
DOWN = frozenset({STOPPING, STOPPED, FAILED, BACKOFF})


def dependency_down(condition: str, status: str) -> bool:
    """The dependency died or was stopped (a service waited on as healthy that exited, too)."""
    return status in DOWN or (status == EXITED and condition == "healthy")


def enough_met(condition: str, members: list[tuple[str, bool]], least: int) -> bool:
    """`depends_on: {name, min}`: at least `least` of the instances, each (status,
    log_ready), meet condition."""
    return sum(dependency_met(condition, s, ready) for s, ready in members) >= least


def enough_impossible(condition: str, statuses: list[str], least: int) -> bool:
    """Fewer than `least` instances can still reach condition without a new start."""
    return sum(not dependency_impossible(condition, s) for s in statuses) < least


def enough_down(condition: str, statuses: list[str], least: int) -> bool:
    """Fewer than `least` instances are up: the dependents are told."""
    return sum(not dependency_down(condition, s) for s in statuses) < least


MIXED = "mixed"  # the roll-up of instances whose statuses differ


def rollup(statuses: list[str]) -> str:
    """One status for a process's instances: theirs when they agree, else `mixed`."""
    return statuses[0] if statuses and len(set(statuses)) == 1 else MIXED


START_GRACE = 0.15  # seconds: a user start that dies this fast is reported failed, not restarted


def unhealthy_after(interval: float, retries: int, start_period: float) -> float:
    """When a run whose check never passes is first unhealthy, in seconds after its start:
    failures count once per interval, from one interval in, none during start_period
    (supervisor/health.py; a log check fails until its line comes)."""
    return max(start_period, interval) + (retries - 1) * interval


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


# -- when a run ends by itself --------------------------------------------------------------


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


# A run that passed its health check, or stayed up this long, had settled: its crash is
# no crash loop, and the next run starts at once (a killed healthy server is back within
# its own start time, as under PM2 or systemd). The backoff grows only for crashes in
# quick succession: runs that end before they settle.
SETTLED_AFTER = 10.0


def restart_delay(quick_crashes: int, initial: float, maximum: float) -> float:
    """Delay before the next run after `quick_crashes` crashes in a row of runs that had
    not settled (0: the run that crashed had settled): none, then initial, doubling."""
    return 0.0 if quick_crashes == 0 else backoff_delay(quick_crashes, initial, maximum)


class AfterExit:
    """What happens to a process whose run ended by itself."""

    __slots__ = ("delay", "quick_crashes", "reason", "restarts", "status")

    def __init__(
        self,
        status: str,
        reason: str,
        restarts: int,
        delay: float | None,
        quick_crashes: int = 0,
    ) -> None:
        self.status = status  # backoff, exited or failed
        self.reason = reason
        self.restarts = restarts  # the restart count from now on
        self.delay = delay  # seconds before the next run (backoff only)
        self.quick_crashes = quick_crashes  # crashes in a row before settling, from now on


def after_exit(
    how: str,
    code: int | None,
    *,
    failed_start: str | None,
    stable: bool,
    restarts: int,
    settled: bool = False,
    quick_crashes: int = 0,
    desired: str,
    policy: str,
    max_restarts: int,
    success_codes: tuple[int, ...],
    backoff: tuple[float, float],
    scheduled: bool = False,
) -> AfterExit:
    """Decide a run's aftermath. `how` says how it ended; `failed_start`: how a user's
    start ended before it was known good ("during start", "before it was healthy"), if it
    did; `stable`: it ran long enough to reset the restart budget; `settled`: it passed its
    health check or ran SETTLED_AFTER (restarted at once; see restart_delay, and
    quick_crashes, the crashes in a row of runs that had not); `backoff`: (initial, max). A scheduled run is never restarted: it waits for its next slot
    (scheduled) while its schedule is armed (desired running)."""
    if scheduled:
        if desired == DESIRED_RUNNING:
            return AfterExit(SCHEDULED, how, restarts, None)
        return AfterExit(exit_status(code, success_codes, False), how, restarts, None)
    if stable:
        restarts = 0
    wants = should_restart(policy, code, success_codes)
    if failed_start and code not in success_codes:
        reason = f"{how} {failed_start}"
    elif wants and desired == DESIRED_RUNNING and restarts < max_restarts:
        restarts += 1
        quick = 0 if settled else quick_crashes + 1
        delay = restart_delay(quick, *backoff)
        when = "at once" if delay == 0 else f"in {delay:g}s"
        return AfterExit(
            BACKOFF, f"{how}; restart {restarts}/{max_restarts} {when}", restarts, delay, quick
        )
    elif wants and desired == DESIRED_RUNNING:
        reason = f"{how}; restart limit reached ({max_restarts})"
    else:
        reason = how
    return AfterExit(exit_status(code, success_codes, will_restart=False), reason, restarts, None)


LIVENESS = "liveness"  # last_exit.reason of a run its failed liveness check ended


def after_liveness(
    *,
    stable: bool,
    restarts: int,
    settled: bool = False,
    quick_crashes: int = 0,
    desired: str,
    policy: str,
    max_restarts: int,
    backoff: tuple[float, float],
    scheduled: bool = False,
) -> AfterExit:
    """The aftermath of a run the supervisor ended because its liveness check failed
    `retries` times in a row: a failure, whatever its exit code, so the restart policy
    (on-failure or always, within its budget and backoff) decides whether it runs again."""
    return after_exit(
        LIVENESS,
        None,
        failed_start=None,
        stable=stable,
        restarts=restarts,
        settled=settled,
        quick_crashes=quick_crashes,
        desired=desired,
        policy=policy,
        max_restarts=max_restarts,
        success_codes=(),
        backoff=backoff,
        scheduled=scheduled,
    )
