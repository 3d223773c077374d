"""What the TUI shows, as plain functions: every status has its colour, cells, search, the
details view written out for a person."""

import os
import time
from collections.abc import Iterator

import pytest
from rich.text import Text

from procler.tui.views import (
    details,
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


@pytest.fixture
def utc() -> Iterator[float]:
    """Local time is UTC; yields 2026-12-01 21:00 UTC as now."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    try:
        yield 1796158800.0
    finally:
        if before is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = before
        time.tzset()


def test_row_cells(utc: float) -> None:
    rows = [ROW, {**ROW, "name": "job-0"}, {**ROW, "name": "api", "replica_of": None}]
    assert replica_counts(rows) == {"job": 2}
    listed = row_cells(ROW, replica_counts(rows), utc)
    cells = [c.plain if isinstance(c, Text) else c for c in listed]
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
        "21:50:00",  # the next run in local time
        "2",
    ]
    assert row_cells(rows[2], {"job": 2}, utc)[-1] == ""


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


WHY = {
    "name": "worker",
    "status": "stopped",
    "desired": "stopped",
    "why": "worker is stopped because nothing asked it to run",
    "dependencies": [{"name": "api", "condition": "healthy", "status": "healthy", "holds": True}],
    "waiting_for": [],
    "last_exit": {
        "code": None,
        "signal": 15,
        "at": "2026-12-01T20:59:30.5Z",
        "reason": "stop requested",
    },
    "stderr": ["Traceback (most recent call last):", "\x1b[31mKeyError\x1b[0m: 'x'"],
    "restart_budget": {"policy": "on-failure", "restarts": 1, "max_restarts": 5, "left": 4},
    "health": {
        "status": "unhealthy",
        "kind": "http",
        "checks": 12,
        "failures": 3,
        "last_output": "GET http://127.0.0.1:8000/health: 503",
    },
    "dependency_path": [{"name": "api", "status": "healthy"}, {"name": "db", "status": None}],
}
HISTORY = {
    "name": "worker",
    "health": [
        {
            "at": "2026-12-01T20:59:00Z",
            "run": 2,
            "from": "healthy",
            "to": "unhealthy",
            "reason": "health check failed 3 times",
        }
    ],
    "exits": [
        {
            "run": 1,
            "started_at": "2026-11-30T10:00:00Z",
            "ended_at": "2026-11-30T10:00:00.589Z",
            "duration_seconds": 0.589,
            "exit_code": None,
            "signal": 9,
            "reason": "killed",
        }
    ],
    "transitions": [],
}


def test_the_details_view_writes_every_value_for_a_person(utc: float) -> None:
    body = details(WHY, HISTORY, utc)
    assert body.splitlines() == [
        "worker is stopped because nothing asked it to run",
        "",
        "status           stopped (desired: stopped)",
        "health           unhealthy: http check, 12 checks, 3 failures; last output: "
        "GET http://127.0.0.1:8000/health: 503",
        "needs            api healthy: healthy (holds)",
        "waiting for      -",
        "last exit        signal 15 (SIGTERM) at 20:59:30: stop requested",
        "restarts         1 of 5 (on-failure), 4 left",
        "dependency path  name api, status healthy; name db, status -",
        "stderr           its last lines:",
        "  Traceback (most recent call last):",
        "  \\x1b[31mKeyError\\x1b[0m: 'x'",
        "",
        "health history, newest first:",
        "  20:59:00  run 2  healthy -> unhealthy  health check failed 3 times",
        "last exits, newest first:",
        "  2026-11-30 10:00:00  run 1  signal 9 (SIGKILL) after 0.5s  killed",
    ]
    assert "{" not in body and "None" not in body


def test_the_details_view_names_a_dependency_down_with_its_path_and_only_then(
    utc: float,
) -> None:
    """`why` answers dependency_down (None, or the root cause and the path to it): a row
    for a person when something is down, none when nothing is."""
    short = {**{k: WHY[k] for k in ("name", "status", "desired", "why")}, "stderr": []}
    down = {**short, "dependency_down": {"name": "db", "path": ["worker", "api", "db"]}}
    assert details(down, {"health": [], "exits": []}, utc).splitlines()[2:4] == [
        "status      stopped (desired: stopped)",
        "root cause  db is down (worker -> api -> db)",
    ]
    nothing_down = {**short, "dependency_down": None}
    assert details(nothing_down, {"health": [], "exits": []}, utc).splitlines()[2:4] == [
        "status  stopped (desired: stopped)",
        "stderr  -",
    ]


def test_the_details_view_shows_the_readiness_and_the_liveness_check(utc: float) -> None:
    liveness = {
        "status": "unhealthy",
        "kind": "exec",
        "checks": 7,
        "failures": 2,
        "last_output": "exit 1: ",
    }
    why = {k: WHY[k] for k in ("name", "status", "desired", "why", "health")}
    lines = details({**why, "liveness": liveness, "stderr": []}, {"health": [], "exits": []}, utc)
    assert lines.splitlines()[2:5] == [
        "status    stopped (desired: stopped)",
        "health    unhealthy: http check, 12 checks, 3 failures; last output: "
        "GET http://127.0.0.1:8000/health: 503",
        "liveness  unhealthy: exec check, 7 checks, 2 failures; last output: exit 1: ",
    ]
