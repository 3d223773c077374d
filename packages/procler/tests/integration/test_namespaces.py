"""Namespaces through the real CLI: `namespace list` and `list -n` read the config here,
`up -n` and `namespace stop` reach a real supervisor, an unknown one exits 2. What they
select, start and keep is tested in process (tests/supervisor/test_namespaces.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from procler_testkit.harness import PY, Project

SLEEP = f'[{PY}, -c, "import time; time.sleep(600)"]'
STACK = f"""
version: 1
processes:
  db: {{args: {SLEEP}, namespace: data}}
  api: {{args: {SLEEP}, namespace: web, depends_on: [db]}}
  worker: {{args: {SLEEP}, namespace: [jobs], depends_on: [db]}}
  report: {{args: {SLEEP}, namespace: [jobs, web]}}
"""


def statuses(data: dict[str, Any]) -> list[tuple[str, str]]:
    return [(p["name"], p["status"]) for p in data["processes"]]


def test_namespaces_through_the_cli(make_project: Callable[[str], Project]) -> None:
    p = make_project(STACK)
    # read from the config here, no supervisor needed
    assert p.ok("namespace", "list")["namespaces"] == [
        {"name": "data", "processes": ["db"]},
        {"name": "web", "processes": ["api", "report"]},
        {"name": "jobs", "processes": ["worker", "report"]},
    ]
    listed = p.ok("list", "--namespace", "jobs,data")["processes"]
    assert [row["name"] for row in listed] == ["db", "worker", "report"]
    up = p.ok("up", "-n", "web")
    assert statuses(up) == [("db", "running"), ("report", "running"), ("api", "running")]
    assert statuses(p.ok("namespace", "stop", "web")) == [("api", "stopped"), ("report", "stopped")]
    assert len(p.marked_pids()) == 1  # db, which api needed, runs on
    code, env = p.run("up", "-n", "nope")
    assert (code, env["error_code"]) == (2, "NAMESPACE_NOT_FOUND")
