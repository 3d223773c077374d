"""Recovery: a new supervisor after kill -9 never has its restored processes killed by the
old one's sentinel, removing the state directory never makes a second supervisor, and
removing the whole project ends its supervisor and processes."""

from __future__ import annotations

import os
import shutil
import signal
from collections.abc import Callable
from pathlib import Path

import pytest
from procler_testkit.harness import PY, Project, alive, supervisors_of, wait_for

GRACEFUL = Path(__file__).parent / "scripts" / "graceful.py"
SENTINEL = "procler.supervisor.sentinel"


def config(tmp_path: Path) -> str:
    # Slow to stop (2 s after TERM): the old sentinel gives it that time (its stop_timeout
    # is 10 s), while the new supervisor answers and restores the rest.
    return f"""
version: 1
processes:
  slow:
    args: [{PY}, {GRACEFUL}, {tmp_path}/slow.txt, "2"]
  quick:
    args: [{PY}, -c, "import time; time.sleep(600)"]
"""


def statuses(p: Project) -> list[tuple[str, str, int]]:
    return [(s["name"], s["status"], s["restarts"]) for s in p.ok("status")["processes"]]


def test_kill_9_then_an_immediate_command_restores_without_collateral_kills(
    make_project: Callable[[str], Project], tmp_path: Path
) -> None:
    p = make_project(config(tmp_path))
    p.ok("start", "--all")
    for round_ in range(1, 4):
        old = {s["name"]: s["pid"] for s in p.ok("status")["processes"]}
        os.kill(p.supervisor_pid(), signal.SIGKILL)
        p.ok("status")  # at once: a new supervisor, while the old sentinel still sweeps
        assert wait_for(lambda: len(supervisors_of(p.root, SENTINEL)) == 1, timeout=30)
        back = p.ok("wait", "--all", "--for", "running", "--timeout", "30")["processes"]
        pids = {s["name"]: s["pid"] for s in back}
        assert not any(alive(pid) for pid in old.values())
        assert (tmp_path / "slow.txt").read_text() == "started\n"  # the new run's
        after = p.ok("status")["processes"]
        assert [(s["name"], s["status"], s["pid"], s["restarts"]) for s in after] == [
            ("slow", "running", pids["slow"], round_),
            ("quick", "running", pids["quick"], round_),
        ]


@pytest.mark.parametrize("deep", [False, True], ids=["tmp_path", "socket path past sun_path"])
def test_removing_the_state_directory_keeps_one_supervisor(
    make_project: Callable[..., Project], tmp_path: Path, deep: bool
) -> None:
    # deep: its socket is bound, and put back, through a descriptor of its folder
    p = make_project(config(tmp_path), under="d" * 100 if deep else "")
    if deep:
        assert len(str(p.root / ".procler" / "state" / "supervisor.sock")) > 108
    started = p.ok("start", "quick")
    sup = p.supervisor_pid()
    shutil.rmtree(p.root / ".procler" / "state")  # what `git clean -xdf` does
    status = p.ok("status", "quick")
    assert (status["status"], status["pid"]) == ("running", started["pid"])
    assert p.ok("daemon", "status")["pid"] == sup
    assert p.ok("start", "quick")["already_running"] is True
    assert wait_for(lambda: supervisors_of(p.root) == [sup])
    assert p.marked_pids() == [started["pid"]]
    assert p.supervisor_pid() == sup
    # What the next supervisor needs was written again: it restores the process.
    os.kill(sup, signal.SIGKILL)
    assert p.ok("status", "quick")["status"] == "running"


def test_removing_the_project_directory_stops_its_processes_and_its_supervisor(
    make_project: Callable[[str], Project], tmp_path: Path
) -> None:
    p = make_project(config(tmp_path))
    pid = p.ok("start", "quick")["pid"]
    sup = p.supervisor_pid()
    shutil.rmtree(p.root)  # nobody can reach this supervisor any more
    assert wait_for(lambda: not alive(sup) and not alive(pid), timeout=30)
    assert p.marked_pids() == []
    Project(p.root, config(tmp_path))  # put it back: the fixture's close asks it to stop
