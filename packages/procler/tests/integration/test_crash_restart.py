"""A process that crashes after it was healthy is started again at once, however long its
backoff: the backoff only grows for crashes in quick succession (real processes)."""

from __future__ import annotations

import os
import signal
import socket
from collections.abc import Callable
from pathlib import Path

from procler_testkit.harness import PY, Project, alive, wait_for

SERVER = Path(__file__).parent / "scripts" / "server.py"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_healthy_process_killed_is_back_without_waiting_its_backoff(
    make_project: Callable[[str], Project],
) -> None:
    port = free_port()
    p = make_project(f"""
version: 1
processes:
  api:
    args: [{PY}, {SERVER}, "{port}"]
    restart: {{policy: on-failure, backoff: {{initial: 120s, max: 120s}}}}
    healthcheck: {{tcp: {{port: {port}}}, interval: 1s}}
""")
    pid = p.ok("start", "api")["pid"]
    for round_ in (1, 2, 3):
        os.kill(pid, signal.SIGKILL)
        assert wait_for(
            lambda n=round_, old=pid: p.ok("status", "api")["restarts"] == n and not alive(old)
        )
        # a 120 s backoff would outlast this wait: the crash of a healthy run is not
        back = p.ok("wait", "api", "--for", "healthy", "--timeout", "30")
        assert (back["status"], back["restarts"], back["run"]) == ("healthy", round_, round_ + 1)
        assert back["last_exit"]["reason"] == f"killed by signal 9; restart {round_}/5 at once"
        assert back["pid"] != pid
        pid = back["pid"]
