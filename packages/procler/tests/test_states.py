"""The status knowledge in procler.states: it agrees with the declarations and the config
schema, and the pure status rules the supervisor and `logs` share."""

from __future__ import annotations

import pytest

from procler import states
from procler.config.keys import CONDITIONS
from procler.declarations.processes import WAIT_FOR


def test_wait_choices_are_the_conditions_states_knows() -> None:
    assert sorted(WAIT_FOR) == sorted(states.WAIT_MET)


def test_dependency_conditions_are_the_ones_the_config_accepts() -> None:
    assert sorted(CONDITIONS) == sorted(states.DEPENDENCY_MET)


def test_every_state_machine_target_is_a_known_status() -> None:
    for table, known in (
        (states.TRANSITIONS, set(states.ALL)),
        (states.HEALTH_TRANSITIONS, set(states.HEALTH_TRANSITIONS)),
    ):
        assert set(table) == known
        assert set().union(*table.values()) <= known


def test_health_moves_only_along_its_table() -> None:
    states.check_health(states.HEALTH_STOPPED, states.HEALTH_STARTING)
    with pytest.raises(states.InvalidTransition, match="health stopped -> healthy"):
        states.check_health(states.HEALTH_STOPPED, states.HEALTH_HEALTHY)


def test_a_crash_during_a_user_start_fails_without_restart() -> None:
    decision = states.after_exit(
        "exit code 1",
        1,
        failed_start="during start",
        stable=False,
        restarts=0,
        desired=states.DESIRED_RUNNING,
        policy="always",
        max_restarts=5,
        success_codes=(0,),
        backoff=(1.0, 8.0),
    )
    assert (decision.status, decision.reason, decision.restarts, decision.delay) == (
        states.FAILED,
        "exit code 1 during start",
        0,
        None,
    )


def test_a_user_start_fails_until_known_good() -> None:
    assert states.failed_start(True, states.STARTING, has_check=False, ever_healthy=False)
    assert not states.failed_start(True, states.RUNNING, has_check=False, ever_healthy=False)
    assert states.failed_start(True, states.RUNNING, has_check=True, ever_healthy=False)
    assert not states.failed_start(True, states.RUNNING, has_check=True, ever_healthy=True)
    assert not states.failed_start(False, states.STARTING, has_check=True, ever_healthy=False)


def test_a_start_settles_when_known_good_or_bad() -> None:
    unsettled = [s for s in states.ALL if not states.start_settled(s, has_check=True)]
    assert unsettled == [states.STARTING, states.RUNNING]  # health still to be decided
    assert [s for s in states.ALL if not states.start_settled(s, has_check=False)] == [
        states.STARTING
    ]


def test_the_crashed_run() -> None:
    assert states.crashed_run(states.BACKOFF, 1, 1) == 1
    assert states.crashed_run(states.FAILED, 1, 0) == 1
    assert states.crashed_run(states.RUNNING, 3, 2) == 2
    assert states.crashed_run(states.RUNNING, 3, 0) is None
    assert states.crashed_run(states.EXITED, 2, 0) is None
    assert states.crashed_run(None, 0, 0) is None


def test_dependencies_down_and_met() -> None:
    assert [s for s in states.ALL if states.dependency_down("started", s)] == [
        states.STOPPED,
        states.STOPPING,
        states.FAILED,
        states.BACKOFF,
    ]
    assert states.dependency_down("healthy", states.EXITED)
    assert not states.dependency_down("completed_successfully", states.EXITED)
    assert states.dependency_met("started", states.EXITED, log_ready=False)
    assert not states.dependency_met("healthy", states.RUNNING, log_ready=False)


def test_up_leaves_a_completed_one_shot_alone_only_when_unchanged() -> None:
    assert states.done_for_up(states.EXITED, same_definition=True)
    assert not states.done_for_up(states.EXITED, same_definition=False)
    assert not states.done_for_up(states.FAILED, same_definition=True)


def test_a_scheduled_run_waits_for_its_next_slot_instead_of_restarting() -> None:
    def decide(desired: str) -> states.AfterExit:
        return states.after_exit(
            "exit code 1",
            1,
            failed_start="during start",
            stable=False,
            restarts=0,
            desired=desired,
            policy="always",
            max_restarts=5,
            success_codes=(0,),
            backoff=(1.0, 8.0),
            scheduled=True,
        )

    armed, paused = decide(states.DESIRED_RUNNING), decide(states.DESIRED_STOPPED)
    assert [(d.status, d.reason, d.delay) for d in (armed, paused)] == [
        (states.SCHEDULED, "exit code 1", None),
        (states.FAILED, "exit code 1", None),
    ]
    # stopping: a scheduled run its liveness check ended waits for its next slot too
    assert sorted(s for s in states.ALL if states.SCHEDULED in states.TRANSITIONS[s]) == sorted(
        [*states.UP, states.STARTING, states.STOPPING, *states.ARMABLE]
    )


def test_a_run_its_liveness_check_ended_is_a_failure_for_the_restart_policy() -> None:
    def decide(policy: str, restarts: int = 0) -> tuple[str, str, float | None]:
        d = states.after_liveness(
            stable=False,
            restarts=restarts,
            desired=states.DESIRED_RUNNING,
            policy=policy,
            max_restarts=2,
            backoff=(1.0, 8.0),
        )
        return d.status, d.reason, d.delay

    assert [decide("on-failure"), decide("always"), decide("no"), decide("always", 2)] == [
        (states.BACKOFF, "liveness; restart 1/2 in 1s", 1.0),
        (states.BACKOFF, "liveness; restart 1/2 in 1s", 1.0),
        (states.FAILED, "liveness", None),
        (states.FAILED, "liveness; restart limit reached (2)", None),
    ]
    # the run is stopped first: stopping leads to each of those
    assert {states.BACKOFF, states.FAILED} <= states.TRANSITIONS[states.STOPPING]


def test_a_persons_actions_are_offered_only_where_they_change_something() -> None:
    """start: never on a run that is alive (it would answer already_running); stop: never
    on one at rest (already_stopped); restart: only on a run that is on its way or up,
    or waiting to restart; a scheduled one between runs is stopped (its schedule paused)."""
    assert not states.CAN_START & states.ALIVE
    assert not states.CAN_STOP & states.AT_REST
    assert not states.CAN_RESTART - (states.ALIVE - {states.STOPPING} | {states.BACKOFF})
    assert states.SCHEDULED in states.CAN_STOP
    assert states.STOPPING not in states.CAN_START | states.CAN_STOP | states.CAN_RESTART
    offered = states.CAN_START | states.CAN_STOP | states.CAN_RESTART
    assert set(states.ALL) - offered == {states.STOPPING}


def test_a_settled_run_is_restarted_at_once_and_quick_crashes_back_off() -> None:
    def decide(settled: bool, quick: int, restarts: int = 0) -> tuple[object, ...]:
        d = states.after_exit(
            "killed by signal 9",
            None,
            failed_start=None,
            stable=False,
            settled=settled,
            restarts=restarts,
            quick_crashes=quick,
            desired=states.DESIRED_RUNNING,
            policy="on-failure",
            max_restarts=5,
            success_codes=(0,),
            backoff=(1.0, 8.0),
        )
        return d.status, d.reason, d.restarts, d.delay, d.quick_crashes

    assert decide(True, 3) == (states.BACKOFF, "killed by signal 9; restart 1/5 at once", 1, 0.0, 0)
    assert decide(False, 0) == (states.BACKOFF, "killed by signal 9; restart 1/5 in 1s", 1, 1.0, 1)
    assert decide(False, 2, 2) == (
        states.BACKOFF,
        "killed by signal 9; restart 3/5 in 4s",
        3,
        4.0,
        3,
    )
    # the budget still counts every restart
    assert decide(True, 0, 5)[:2] == (
        states.FAILED,
        "killed by signal 9; restart limit reached (5)",
    )
    assert [states.restart_delay(n, 1.0, 8.0) for n in range(6)] == [0.0, 1.0, 2.0, 4.0, 8.0, 8.0]
