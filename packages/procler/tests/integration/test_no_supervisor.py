"""Read-only and stopping commands answer from the state on disk and start no supervisor."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from typing import Any

from procler_testkit.harness import PY, Project, alive, supervisors_of, wait_for

CONFIG = f"""version: 1
processes:
  db:
    args: [{PY}, -c, "import time; time.sleep(600)"]
  api:
    args: [{PY}, -c, "import time; time.sleep(600)"]
    depends_on: [db]
groups:
  backend: {{processes: [api, db]}}
"""


def resting(name: str, **saved: Any) -> dict[str, Any]:
    """The status of a process that is not running, as a supervisor answers it."""
    return {
        "name": name,
        "status": "stopped",
        "context": "local",
        "pid": None,
        "shell": False,
        "started_at": None,
        "uptime_seconds": None,
        "run": 0,
        "restarts": 0,
        "exit_code": None,
        "last_exit": None,
        "desired": "stopped",
        "dependency_down": None,
        "dependency_path": None,
        "why": None,
        "source": "config",
        "tags": [],
        "namespaces": ["default"],
        "ports": [],
        "replica_of": None,
        "memory_rss_bytes": None,
        "cpu_percent": None,
        "linux_state": None,
        "docker": None,
        "podman": None,
        **saved,
    }


def test_a_project_that_never_ran_is_answered_without_a_supervisor(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(CONFIG)
    assert p.ok("status") == {"processes": [resting("db"), resting("api")]}
    assert p.ok("status", "api") == resting("api")
    stopped = {"already_stopped": True, "dependents_running": []}  # nothing runs
    assert p.ok("stop", "api") == {**resting("api"), **stopped}
    assert p.ok("stop", "db", "--with-dependents") == {
        **resting("db"),
        "already_stopped": True,
        "dependents": [{**resting("api"), "already_stopped": True}],
        "dependents_running": [],
    }
    assert p.ok("down") == {
        "processes": [{**resting(n), "already_stopped": True} for n in ("api", "db")]
    }
    assert p.ok("group", "status", "backend") == {
        "group": "backend",
        "processes": [resting("api"), resting("db")],
    }
    assert p.ok("reload") == {"running": False}
    assert p.ok("daemon", "status") == {"running": False}
    code, unknown = p.run("stop", "apj")
    assert (code, unknown["error_code"]) == (2, "PROCESS_NOT_FOUND")
    assert supervisors_of(p.root) == []


def test_after_a_clean_stop_the_disk_answers_what_the_supervisor_would(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(CONFIG)
    p.ok("start", "db")
    seen = p.ok("stop", "db")  # the supervisor's own answer for a stopped db
    p.ok("start", "db")
    p.ok("daemon", "stop")
    assert wait_for(lambda: supervisors_of(p.root) == [])
    db = p.ok("status", "db")
    assert db == {
        k: v for k, v in seen.items() if k not in ("already_stopped", "dependents_running")
    } | {
        "run": 2,
        "last_exit": db["last_exit"],
    }
    assert (db["last_exit"]["signal"], db["last_exit"]["reason"]) == (15, "daemon stop")
    p.ok("start", "db")
    supervisor = p.supervisor_pid()
    os.kill(supervisor, signal.SIGTERM)  # a clean exit that keeps desired running
    assert wait_for(lambda: not alive(supervisor))
    assert p.ok("status", "db")["desired"] == "running"
    down = p.ok("down")
    assert [(row["name"], row["desired"]) for row in down["processes"]] == [
        ("api", "stopped"),
        ("db", "stopped"),
    ]
    assert supervisors_of(p.root) == []
    p.ok("start", "api", "--no-deps")  # a new supervisor: db is not brought back
    assert p.ok("status", "db")["status"] == "stopped"
