"""Health probes of each kind against real processes on loopback (dependency order and
groups are tested in process: tests/supervisor/test_dependencies.py, test_groups.py)."""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

from procler_testkit.harness import PY, Project, wait_for

SERVER = Path(__file__).parent / "scripts" / "server.py"
FAST = "interval: 100ms, timeout: 1s, retries: 2"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server(port: int, delay: float = 0.0, status: int = 200) -> str:
    return f"[{PY}, {SERVER}, '{port}', '{delay}', '{status}']"


def wait(p: Project, name: str, cond: str, timeout: str = "15s") -> tuple[int, dict[str, Any]]:
    return p.run("wait", name, "--for", cond, "--timeout", timeout)


def test_http_probe_healthy_and_unhealthy(make_project: Callable[[str], Project]) -> None:
    good, bad = free_port(), free_port()
    p = make_project(
        f"""version: 1
processes:
  good:
    args: {server(good)}
    healthcheck: {{http: {{port: {good}, path: /}}, {FAST}}}
  bad:
    args: {server(bad, 0, 500)}
    healthcheck: {{http: {{url: "http://127.0.0.1:{bad}/"}}, {FAST}}}
"""
    )
    p.ok("start", "good")
    p.ok("start", "bad")
    code, env = wait(p, "good", "healthy")
    assert code == 0, env
    assert env["data"]["health"]["status"] == "healthy"
    assert env["data"]["health"]["last_output"] == f"GET http://127.0.0.1:{good}/: 200"
    code, env = wait(p, "bad", "unhealthy")
    assert code == 0, env
    assert env["data"]["health"]["failures"] >= 2
    # Under load the verdict may come while the server is still starting (connection
    # refused); the 500 is what the probes see once it listens.
    answer = f"GET http://127.0.0.1:{bad}/: 500"
    assert wait_for(lambda: p.ok("status", "bad")["health"]["last_output"] == answer)


def test_tcp_probe_healthy_and_unhealthy(make_project: Callable[[str], Project]) -> None:
    up, never = free_port(), free_port()
    p = make_project(
        f"""version: 1
processes:
  up:
    args: {server(up)}
    healthcheck: {{tcp: {{port: {up}}}, {FAST}}}
  never:
    args: [{PY}, -c, "import time; time.sleep(600)"]
    healthcheck: {{tcp: {{port: {never}}}, {FAST}}}
"""
    )
    p.ok("start", "up")
    p.ok("start", "never")
    assert wait(p, "up", "healthy")[0] == 0
    code, env = wait(p, "never", "unhealthy")
    assert code == 0, env
    assert env["data"]["status"] == "unhealthy"


def test_exec_probe_runs_in_the_process_cwd_and_env(make_project: Callable[[str], Project]) -> None:
    p = make_project(
        f"""version: 1
processes:
  ready:
    args: [{PY}, -c, "import time; open('ready.flag', 'w').close(); time.sleep(600)"]
    env: {{FLAG: ready.flag}}
    healthcheck: {{exec: 'test -f "$FLAG"', {FAST}}}
  down:
    args: [{PY}, -c, "import time; time.sleep(600)"]
    healthcheck: {{exec: "echo nope; exit 1", {FAST}}}
"""
    )
    p.ok("start", "ready")
    p.ok("start", "down")
    assert wait(p, "ready", "healthy")[0] == 0
    code, env = wait(p, "down", "unhealthy")
    assert code == 0, env
    assert env["data"]["health"]["last_output"] == "exit 1: nope"


def test_log_probe(make_project: Callable[[str], Project]) -> None:
    port = free_port()
    p = make_project(
        f"""version: 1
processes:
  srv:
    args: {server(port, 0.3)}
    healthcheck: {{log: "listening on \\\\d+", {FAST}}}
  quiet:
    args: [{PY}, -c, "import time; time.sleep(600)"]
    healthcheck: {{log: "never printed", {FAST}}}
"""
    )
    p.ok("start", "srv")
    p.ok("start", "quiet")
    code, env = wait(p, "srv", "healthy")
    assert code == 0, env
    assert env["data"]["health"]["last_output"] == f"listening on {port}"
    assert wait(p, "quiet", "unhealthy")[0] == 0


def test_a_catastrophic_log_pattern_does_not_pin_the_supervisor(
    make_project: Callable[[str], Project],
) -> None:
    # With a backtracking engine '^(a+)+$' against 34 a's and a b takes 2^34 steps.
    p = make_project(
        f"""version: 1
processes:
  app:
    args: [{PY}, -c, "import time; print('a' * 34 + 'b', flush=True); time.sleep(600)"]
    healthcheck: {{log: '^(a+)+$', interval: 100ms, timeout: 1s, retries: 2, start_period: 1s}}
"""
    )  # the line never matches: unhealthy once the start period is over (a short one)
    assert p.run("start", "app", timeout=20)[0] == 0

    def line_stored() -> bool:
        lines = p.ok("logs", "app")["lines"]
        return [line["text"] for line in lines] == ["a" * 34 + "b"]

    assert wait_for(line_stored)
    code, env = p.run("status", "app", timeout=20)
    assert (code, env["data"]["status"]) == (0, "unhealthy")  # start waited for the verdict
    assert env["data"]["health"]["status"] == "unhealthy"
