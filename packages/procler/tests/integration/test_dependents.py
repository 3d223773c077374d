"""Dependents are told when a dependency dies or is stopped (`dependency_down`, `why`),
and `depends_on: {restart: true}` restarts them when it comes back."""

from __future__ import annotations

from collections.abc import Callable

from procler_testkit.harness import PY, Project, wait_for

SLEEP = f'[{PY}, -c, "import time; time.sleep(600)"]'
STACK = f"""
version: 1
processes:
  db:
    args: {SLEEP}
  api:
    args: {SLEEP}
    depends_on: [{{name: db, restart: true}}]
  worker:
    args: {SLEEP}
    depends_on: [db]
"""


def told(p: Project) -> list[tuple[str, str, int, str | None, str | None]]:
    return [
        (s["name"], s["status"], s["run"], s["dependency_down"], s["why"])
        for s in p.ok("status")["processes"]
    ]


def test_dependents_are_told_and_restarted_when_the_dependency_comes_back(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(STACK)
    p.ok("up")
    assert told(p) == [
        ("db", "running", 1, None, None),
        ("api", "running", 1, None, None),
        ("worker", "running", 1, None, None),
    ]
    p.ok("stop", "db")
    why = "db is stopped (stop requested)"
    assert told(p) == [
        ("db", "stopped", 1, None, None),
        ("api", "running", 1, "db", f"{why}; api needs it started"),
        ("worker", "running", 1, "db", f"{why}; worker needs it started"),
    ]
    p.ok("start", "db")
    assert wait_for(lambda: told(p)[1][1:3] == ("running", 2))
    assert told(p) == [
        ("db", "running", 2, None, None),
        ("api", "running", 2, None, None),
        ("worker", "running", 1, None, None),
    ]
    assert p.ok("status", "api")["last_exit"]["reason"] == "restarted: its dependency db came back"
