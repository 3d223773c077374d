"""Every status a person can read has its style: the TUI's table and `--format table`."""

from procler import recipe_states, states, status_styles


def test_every_process_status_has_a_style() -> None:
    assert set(status_styles.PROCESS) == {*states.ALL, states.MIXED}


def test_every_health_verdict_has_a_style() -> None:
    assert set(status_styles.HEALTH) == set(states.HEALTH_TRANSITIONS)


def test_every_recipe_run_and_step_status_has_a_style() -> None:
    statuses = {*recipe_states.RUN_STATUSES, *recipe_states.STEP_STATUSES}
    assert set(status_styles.RECIPE) == statuses
