"""Namespaces with real processes: `up -n` starts a selection and names the dependencies
started outside it; stopping a namespace leaves what another namespace needs running."""

from __future__ import annotations

from collections.abc import Callable

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


def statuses(data: dict) -> list[tuple[str, str]]:  # type: ignore[type-arg]
    return [(p["name"], p["status"]) for p in data["processes"]]


def test_namespace_selection_and_stop_isolation(make_project: Callable[[str], Project]) -> None:
    p = make_project(STACK)
    up = p.ok("up", "-n", "web")
    assert statuses(up) == [("db", "running"), ("report", "running"), ("api", "running")]
    assert (up["namespaces"], up["outside_namespaces"]) == (["web"], ["db"])
    assert up["warning"] == "started outside the namespaces, as dependencies: db"
    assert statuses(p.ok("status", "--namespace", "jobs")) == [
        ("worker", "stopped"),
        ("report", "running"),
    ]
    listed = p.ok("list", "--namespace", "jobs,data")["processes"]
    assert [row["name"] for row in listed] == ["db", "worker", "report"]
    assert p.ok("namespace", "list")["namespaces"] == [
        {"name": "data", "processes": ["db"]},
        {"name": "web", "processes": ["api", "report"]},
        {"name": "jobs", "processes": ["worker", "report"]},
    ]
    db_pid = p.ok("status", "db")["pid"]

    jobs = p.ok("namespace", "start", "jobs")
    assert statuses(jobs) == [("db", "running"), ("report", "running"), ("worker", "running")]
    kept = p.ok("namespace", "stop", "data")
    assert (kept["processes"], [(k["name"], k["needed_by"]) for k in kept["kept"]]) == (
        [],
        [("db", ["api", "worker"])],
    )
    web = p.ok("namespace", "stop", "web")
    assert statuses(web) == [("api", "stopped"), ("report", "stopped")]
    assert (p.ok("status", "db")["pid"], p.ok("status", "worker")["status"]) == (db_pid, "running")
    assert statuses(p.ok("namespace", "stop", "jobs,data")) == [
        ("worker", "stopped"),
        ("db", "stopped"),
        ("report", "stopped"),
    ]

    code, env = p.run("up", "-n", "nope")
    assert (code, env["error_code"]) == (2, "NAMESPACE_NOT_FOUND")
