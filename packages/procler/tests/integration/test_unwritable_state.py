"""A state directory Procler cannot write: a defined answer, never a storm of supervisors."""

from __future__ import annotations

import os
import socket
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from procler_testkit.harness import PY, Project, supervisors_of, wait_for

from procler.project import at_socket

TICKER = f"""version: 1
processes:
  app:
    args: [{PY}, -c, "import time\\nwhile True: print('tick', flush=True); time.sleep(0.05)"]
"""


@contextmanager
def unwritable(path: Path) -> Iterator[None]:
    """Nobody may create or remove entries in path: immutable for root (whom modes do not
    stop), mode 0500 for anyone else."""
    if os.geteuid() == 0:
        made = subprocess.run(["chattr", "+i", str(path)], capture_output=True, timeout=10)
        if made.returncode != 0:
            pytest.skip(f"chattr +i is not supported here: {made.stderr.decode().strip()}")
        undo = ["chattr", "-i", str(path)]
    else:
        path.chmod(0o500)
        undo = ["chmod", "700", str(path)]
    try:
        yield
    finally:
        subprocess.run(undo, check=True, timeout=10)


def test_status_warns_while_output_cannot_be_stored(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(TICKER)
    logs = p.root / ".procler" / "state" / "logs"
    logs.mkdir(parents=True)
    with unwritable(logs):
        p.ok("start", "app")
        assert wait_for(lambda: "output_warning" in p.ok("status", "app"))
        warning = p.ok("status", "app")["output_warning"]
        assert warning.startswith("output is not being stored: ")
        assert warning.endswith(f"({logs}/app)")
        assert p.ok("status", "app")["status"] == "running"
    # Writable again: the store retries, the warning goes and new lines are kept.
    assert wait_for(lambda: "output_warning" not in p.ok("status", "app"))
    assert wait_for(lambda: len(p.ok("logs", "app")["lines"]) > 0)


def test_a_stale_socket_in_an_unwritable_state_dir_answers_state_dir_unwritable_at_once(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(TICKER)
    p.ok("status")  # a supervisor ran here: its log, lock and database stay
    p.ok("daemon", "stop")
    assert wait_for(lambda: supervisors_of(p.root) == [])
    state = p.root / ".procler" / "state"
    (state / "supervisor.sock").unlink(missing_ok=True)
    stale = socket.socket(socket.AF_UNIX)
    at_socket(
        str(state / "supervisor.sock"), stale.bind
    )  # bound, never listening: a dead supervisor's
    stale.close()
    with unwritable(state):
        code, env = p.run("status", timeout=20)  # answered from the state on disk
        assert (code, env["data"]["processes"][0]["status"]) == (0, "stopped")
        code, env = p.run("start", "app", timeout=20)  # needs a supervisor, which cannot run
        assert (code, env["error_code"]) == (2, "STATE_DIR_UNWRITABLE")
        assert env["error"] == (
            f"the state directory {state} is not writable: no supervisor can run here"
        )
        assert supervisors_of(p.root) == []


def test_daemon_restart_into_an_unwritable_state_dir_keeps_the_running_supervisor(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(TICKER)
    p.ok("start", "app")
    pid = p.supervisor_pid()
    state = p.root / ".procler" / "state"
    with unwritable(state):
        code, env = p.run("daemon", "restart", timeout=30)
        assert (code, env["error_code"]) == (2, "STATE_DIR_UNWRITABLE")
        assert supervisors_of(p.root) == [pid]
        assert p.ok("status", "app")["status"] == "running"


def test_a_supervisor_crashing_at_start_is_reported_with_its_error_not_respawned(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(TICKER)
    state = p.root / ".procler" / "state"
    state.mkdir(parents=True)
    (state / "state.db").write_bytes(b"not a database, but 100 bytes of something else" * 2)
    code, env = p.run("status", timeout=20)
    assert (code, env["error_code"]) == (3, "SUPERVISOR_UNAVAILABLE")
    assert env["error"] == (
        "the supervisor exited with code 1 as it started: "
        "sqlite3.DatabaseError: file is not a database"
    )
    assert wait_for(
        lambda: supervisors_of(p.root) == []
    )  # one spawned a second later may be ending
