"""The supervisor's own life: one per project, detached from its caller, --all commands,
and the environment it captured when the project first started."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from procler_testkit.harness import (
    PROCLER,
    PY,
    Project,
    alive,
    sockets_of,
    supervisors_of,
    wait_for,
)

SLEEP = f'[{PY}, -c, "import time; time.sleep(600)"]'
CHAIN = f"""
version: 1
processes:
  db:
    args: {SLEEP}
  api:
    args: {SLEEP}
    depends_on: [db]
  worker:
    args: {SLEEP}
    depends_on: [api]
"""
ENV_PRINTER = f"""
version: 1
processes:
  show:
    args: [{PY}, -c, "import os,time; print(os.environ.get('CAPTURED'), flush=True); time.sleep(600)"]
"""


def names_and_status(data: dict[str, Any]) -> list[tuple[str, str, int]]:
    return [(p["name"], p["status"], p["run"]) for p in data["processes"]]


def test_all_starts_restarts_and_stops_every_process_in_dependency_order(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(CHAIN)
    started = p.ok("start", "--all")
    assert names_and_status(started) == [
        ("db", "running", 1),
        ("api", "running", 1),
        ("worker", "running", 1),
    ]
    first_pids = {proc["pid"] for proc in started["processes"]}
    restarted = p.ok("restart", "--all")
    assert names_and_status(restarted) == [
        ("db", "running", 2),
        ("api", "running", 2),
        ("worker", "running", 2),
    ]
    assert not {proc["pid"] for proc in restarted["processes"]} & first_pids
    stopped = p.ok("stop", "--all")
    assert names_and_status(stopped) == [  # dependents first
        ("worker", "stopped", 2),
        ("api", "stopped", 2),
        ("db", "stopped", 2),
    ]
    assert p.marked_pids() == []


def test_racing_first_commands_make_one_supervisor(make_project: Callable[[str], Project]) -> None:
    p = make_project(CHAIN)
    # status answers from disk while no supervisor runs, and asks the one that starts
    with ThreadPoolExecutor(6) as pool:
        codes = list(
            pool.map(lambda i: p.run(*("start", "db") if i % 2 else ("status",))[0], range(6))
        )
    assert codes == [0] * 6
    # Losers of the lock race may still be starting up; each exits once it sees the lock.
    assert wait_for(lambda: supervisors_of(p.root) == [p.supervisor_pid()])


def test_the_supervisor_outlives_its_callers_session(
    make_project: Callable[[str], Project],
) -> None:
    """An agent's shell that started the project may exit or be killed with its group."""
    p = make_project(CHAIN)
    shell = subprocess.Popen(
        ["sh", "-c", f"{PROCLER} start db >/dev/null && echo started && exec sleep 600"],
        cwd=p.root,
        stdout=subprocess.PIPE,
        start_new_session=True,
    )
    assert shell.stdout is not None
    assert shell.stdout.readline() == b"started\n"
    supervisor = p.supervisor_pid()
    assert os.getsid(supervisor) == supervisor != os.getsid(shell.pid)
    os.killpg(shell.pid, signal.SIGHUP)
    os.killpg(shell.pid, signal.SIGKILL)
    shell.wait(timeout=30)
    shell.stdout.close()
    assert alive(supervisor)
    assert p.ok("status", "db")["status"] == "running"


def test_processes_keep_the_environment_captured_at_first_start(
    make_project: Callable[[str], Project], tmp_path: Path
) -> None:
    p = make_project(ENV_PRINTER)

    def procler(*args: str, captured: str) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PROCLER_")}
        subprocess.run(
            [PROCLER, *args],
            cwd=p.root,
            env={**env, "CAPTURED": captured},
            check=True,
            capture_output=True,
            timeout=60,
        )

    procler("start", "show", captured="first")
    procler("daemon", "restart", captured="second")  # a new supervisor, another caller env
    assert wait_for(lambda: p.ok("status", "show")["run"] == 2)
    lines = p.ok("logs", "show", "--run", "all")["lines"]
    assert [(line["run"], line["text"]) for line in lines] == [(1, "first"), (2, "first")]


def test_daemon_stop_answers_a_pending_wait_and_ends(
    make_project: Callable[[str], Project],
) -> None:
    """A client still waiting must not keep a stopping supervisor (and its lock) alive."""
    p = make_project(CHAIN)
    p.ok("start", "db")
    supervisor = p.supervisor_pid()
    before = sockets_of(supervisor)
    waiter = subprocess.Popen(
        [PROCLER, "wait", "db", "--for", "exited", "--timeout", "60s"],
        cwd=p.root,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert wait_for(lambda: sockets_of(supervisor) > before)
    assert p.ok("daemon", "stop")["stopped_processes"] == ["db"]
    out, _ = waiter.communicate(timeout=30)
    assert (waiter.returncode, json.loads(out)["error_code"]) == (3, "SUPERVISOR_UNAVAILABLE")
    assert wait_for(lambda: not alive(supervisor))
    assert p.ok("status", "db")["status"] == "stopped"  # a new supervisor answers at once


def test_daemon_stop_answers_once_the_supervisor_has_ended(
    make_project: Callable[[str], Project],
) -> None:
    """`running: false` is true when the answer comes: the supervisor's process is gone,
    not still closing its logs and state, so a `daemon status` right after sees none."""
    p = make_project(CHAIN)
    p.ok("start", "db")
    supervisors = supervisors_of(p.root)
    assert len(supervisors) == 1
    answer = p.ok("daemon", "stop")
    assert (answer["running"], answer["stopped_processes"]) == (False, ["db"])
    assert [pid for pid in supervisors if alive(pid)] == []
    assert p.ok("daemon", "status") == {"running": False}
