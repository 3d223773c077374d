"""The status knowledge in procler.states agrees with the declarations and the config schema."""

from __future__ import annotations

import pytest

from procler import states
from procler.cli.processes import WAIT_FOR
from procler.config.keys import CONDITIONS


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
        during_user_start=True,
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
