"""Every status a person can read has its style: the TUI's table and `--format table`."""

from procler import recipe_states, states, status_styles


def test_every_process_status_has_a_style() -> None:
    assert set(status_styles.PROCESS) == {*states.ALL, states.MIXED}


def test_every_health_verdict_has_a_style() -> None:
    assert set(status_styles.HEALTH) == set(states.HEALTH_TRANSITIONS)


def test_every_recipe_run_and_step_status_has_a_style() -> None:
    statuses = {*recipe_states.RUN_STATUSES, *recipe_states.STEP_STATUSES}
    assert set(status_styles.RECIPE) == statuses


def test_every_table_views_styles_are_found() -> None:
    """A column names its styles by string (loaded only when a table is printed): each
    name is a mapping of status_styles."""
    from agentcli.table import styles_of
    from procler.declarations import APP

    named = {
        column.styles
        for command in APP.commands
        if command.table is not None
        for table in command.table.tables
        for column in table.columns
        if column.styles
    }
    assert named == {
        "procler.status_styles:PROCESS",
        "procler.status_styles:HEALTH",
        "procler.status_styles:RECIPE",
    }
    for table_columns in (c.table.tables for c in APP.commands if c.table is not None):
        for table in table_columns:
            for column in table.columns:
                if isinstance(column.styles, str) and column.styles:
                    assert styles_of(column) is getattr(
                        status_styles, column.styles.partition(":")[2]
                    )
