"""What the TUI shows, as plain functions: every status has its colour, cells, search."""

from rich.text import Text

from procler import states
from procler.tui.views import (
    STATUS_STYLE,
    describe,
    log_text,
    matches,
    reload_question,
    replica_counts,
    row_cells,
    shown,
)

ROW = {
    "name": "job-1",
    "status": "scheduled",
    "pid": None,
    "uptime_seconds": 3725.5,
    "restarts": 2,
    "cpu_percent": 1.25,
    "memory_rss_bytes": 3 * 2**20,
    "health": {"status": "healthy"},
    "schedule": {"next_run": "2026-12-01T21:50:00Z"},
    "namespaces": ["batch", "nightly"],
    "replica_of": "job",
}


def test_every_status_of_the_state_machine_has_a_colour() -> None:
    assert set(STATUS_STYLE) == set(states.ALL)


def test_row_cells() -> None:
    rows = [ROW, {**ROW, "name": "job-0"}, {**ROW, "name": "api", "replica_of": None}]
    assert replica_counts(rows) == {"job": 2}
    cells = [c.plain if isinstance(c, Text) else c for c in row_cells(ROW, replica_counts(rows))]
    assert cells == [
        "job-1",
        "scheduled",
        "healthy",
        "",
        "1h02m",
        "2",
        "1.2%",
        "3.0 MiB",
        "batch, nightly",
        "2026-12-01T21:50:00Z",
        "2",
    ]
    assert row_cells(rows[2], {"job": 2})[-1] == ""


def test_filter_by_name_namespace_and_hide_at_rest() -> None:
    rows = [
        {"name": "API", "status": "running", "namespaces": ["web"]},
        {"name": "worker", "status": "stopped", "namespaces": ["jobs", "web"]},
    ]
    assert [r["name"] for r in shown(rows, "ap", False)] == ["API"]
    assert [r["name"] for r in shown(rows, "", True)] == ["API"]
    assert [r["name"] for r in shown(rows, "", False, "jobs")] == ["worker"]
    assert [r["name"] for r in shown(rows, "", False, "web")] == ["API", "worker"]
    assert [r["name"] for r in shown(rows, "", True, "jobs")] == []


def test_log_text_is_never_markup_and_search_is_literal() -> None:
    line = {"name": "api", "text": "[bold]x[/] (a+)+$ \x1b[32mok\x1b[0m", "stream": "stderr"}
    text = log_text(line, prefix=True)
    assert text.plain == "api | [bold]x[/] (a+)+$ ok"
    assert matches([text, Text("A+")], "(A+)") == [(0, 17)]
    assert matches([Text("aaa")], "a") == [(0, 0), (0, 1), (0, 2)]
    assert matches([Text("x")], "") == []


def test_reload_question_names_the_changed_fields() -> None:
    diff = {
        "added": ["new", "newer"],
        "changed": [{"name": "api", "fields": ["command", "env"]}],
        "removed": [],
        "unchanged": ["db", "cache"],
    }
    assert reload_question(diff) == (
        "Apply this reload?\nadded: new, newer\nchanged: api (command, env)\nremoved: -\n"
        "unchanged: 2"
    )


def test_the_details_view_shows_the_readiness_and_the_liveness_check() -> None:
    check = {"failures": 0, "last_output": "exit 0: ok"}
    why = {
        "why": "api is healthy",
        "dependencies": [],
        "last_exit": {"reason": "liveness"},
        "stderr": [],
        "restart_budget": {"policy": "on-failure", "restarts": 1, "max_restarts": 5},
        "health": {**check, "status": "healthy"},
        "liveness": {"status": "unhealthy", "failures": 2, "last_output": "exit 1: "},
    }
    assert describe("why", why).splitlines() == [
        "api is healthy",
        "",
        "last exit: {'reason': 'liveness'}",
        "restarts: 1 of 5 (on-failure)",
        "readiness (healthcheck): healthy, 0 failure(s) in a row; last: exit 0: ok",
        "liveness: unhealthy, 2 failure(s) in a row; last: exit 1: ",
    ]
