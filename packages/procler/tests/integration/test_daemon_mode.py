"""daemon_mode (Procler 0.3): the daemon a command leaves is followed; adopt_existing takes
one that already runs; stop ends it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from procler_testkit.harness import PY, Project, alive, wait_for

DAEMONIZE = (
    "import os, sys, time; pid = os.fork()\n"
    "if pid == 0:\n"
    "    os.setsid(); open(sys.argv[1], 'w').write(str(os.getpid())); time.sleep(600)\n"
    "time.sleep(0.3)"
)


def _config(tmp_path: Path, extra: str = "") -> str:
    script = tmp_path / "daemonize.py"
    script.write_text(DAEMONIZE)
    return f"""
version: 1
processes:
  svc:
    command: {PY} {script} {tmp_path / "svc.pid"}
    daemon_mode: true
    daemon_pidfile: svc.pid
    restart: "no"
{extra}"""


def _pidfile(tmp_path: Path) -> int:
    return int((tmp_path / "svc.pid").read_text())


def test_the_daemon_is_followed_and_stopped(tmp_path: Path) -> None:
    project = Project(tmp_path, _config(tmp_path))
    try:
        project.ok("start", "svc")
        assert wait_for(
            lambda: (
                (tmp_path / "svc.pid").exists()
                and project.ok("status", "svc")["pid"] == _pidfile(tmp_path)
            )
        )
        daemon = _pidfile(tmp_path)
        status = project.ok("status", "svc")
        assert (status["status"], status["daemon"], status["linux_state"]["state_code"]) == (
            "running",
            True,
            "S",
        )
        stopped = project.ok("stop", "svc")
        assert (stopped["status"], alive(daemon)) == ("stopped", False)
    finally:
        project.close()


def test_adopt_existing_follows_a_daemon_already_running(tmp_path: Path) -> None:
    project = Project(tmp_path, _config(tmp_path, "    adopt_existing: true\n"))
    subprocess.run(
        [sys.executable, str(tmp_path / "daemonize.py"), str(tmp_path / "svc.pid")], check=True
    )
    assert wait_for(lambda: (tmp_path / "svc.pid").exists())
    daemon = _pidfile(tmp_path)
    try:
        started = project.ok("start", "svc")
        assert (started["already_running"], started["adopted"], started["pid"]) == (
            True,
            True,
            daemon,
        )
        project.ok("stop", "svc")
        assert wait_for(lambda: not alive(daemon))
    finally:
        project.close()
        if alive(daemon):
            subprocess.run(["kill", "-9", str(daemon)], check=False)


def test_no_daemon_found_is_a_failure_that_says_so(tmp_path: Path) -> None:
    project = Project(
        tmp_path,
        f"""
version: 1
processes:
  svc:
    command: {PY} -c "pass"
    daemon_mode: true
    daemon_pidfile: never.pid
    restart: "no"
""",
    )
    try:
        project.ok("start", "svc")
        code, _ = project.run("wait", "svc", "--for", "failed", "--timeout", "20s")
        status = project.ok("status", "svc")
        assert (code, status["status"]) == (0, "failed")
        assert (
            status["last_exit"]["reason"]
            == "exit code 0; daemon_mode: no daemon found by its pidfile or pattern"
        )
    finally:
        project.close()
