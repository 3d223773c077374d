"""A start answers when the process is known good: its health check passed (at once, not
after a fixed window), or, for a process with a check, `failed` if it dies first."""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path

from procler_testkit.harness import PY, Project

SERVER = Path(__file__).parent / "scripts" / "server.py"
FAST = "interval: 100ms, timeout: 1s, retries: 3, start_period: 5s"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def config(port: int, unused: int) -> str:
    return f"""
version: 1
processes:
  ready_later:
    args: [{PY}, {SERVER}, '{port}', '0.4']
    healthcheck: {{tcp: {{port: {port}}}, {FAST}}}
  dies_late:
    args: [{PY}, -c, "import sys,time; time.sleep(0.5); print('bind: address in use', file=sys.stderr, flush=True); sys.exit(3)"]
    healthcheck: {{tcp: {{port: {unused}}}, {FAST}}}
"""


def test_start_and_restart_answer_healthy_once_the_check_passes(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(config(free_port(), free_port()))
    started = p.ok("start", "ready_later")
    assert (started["status"], started["health"]["status"], started["run"]) == (
        "healthy",
        "healthy",
        1,
    )
    restarted = p.ok("restart", "ready_later")
    assert (restarted["status"], restarted["run"]) == ("healthy", 2)


def test_a_process_dying_before_it_was_ever_healthy_is_failed(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(config(free_port(), free_port()))
    code, env = p.run("start", "dies_late")
    assert code == 1, env
    assert env["error_code"] == "START_FAILED"
    data = env["data"]
    assert (data["status"], data["exit_code"], data["restarts"]) == ("failed", 3, 0)
    assert data["stderr"] == ["bind: address in use"]
    assert data["last_exit"]["reason"] == "exit code 3 before it was healthy"
