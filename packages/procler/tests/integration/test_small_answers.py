"""Answers that must name the right thing: the command to run, the option's problem, the
Procler process holding a port."""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path

import pytest
from procler_testkit.harness import PY, Project

SERVER = Path(__file__).parent / "scripts" / "server.py"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("verb", ["stop", "restart", "start"])
def test_a_command_without_a_name_suggests_itself(
    make_project: Callable[[str], Project], verb: str
) -> None:
    p = make_project(f"version: 1\nprocesses:\n  db:\n    args: [{PY}, -c, 'pass']\n")
    code, env = p.run(verb)
    assert (code, env["error_code"], env["error"]) == (2, "USAGE", "name a process or pass --all")
    assert env["suggestion"] == f"e.g. `procler {verb} db`, or `procler {verb} --all`"


@pytest.mark.parametrize(
    ("value", "reason"),
    [("-5", "must be 0 or more"), ("abc", "expected a whole number such as 100")],
)
def test_a_bad_tail_is_a_usage_error_that_says_why(
    make_project: Callable[[str], Project], value: str, reason: str
) -> None:
    p = make_project(f"version: 1\nprocesses:\n  db:\n    args: [{PY}, -c, 'pass']\n")
    code, env = p.run("logs", "db", "--tail", value)
    assert (code, env["error_code"]) == (2, "USAGE")
    assert env["error"] == f"procler logs: invalid integer value {value!r} for --tail: {reason}"


def test_a_port_held_by_one_of_our_processes_names_it(
    make_project: Callable[[str], Project],
) -> None:
    port = free_port()
    p = make_project(
        f"""version: 1
processes:
  api:
    args: [{PY}, {SERVER}, '{port}']
    ports: [{port}]
    healthcheck: {{tcp: {{port: {port}}}, interval: 100ms}}
  api2:
    args: [{PY}, {SERVER}, '{port}']
    ports: [{port}]
"""
    )
    p.ok("start", "api")
    assert p.run("wait", "api", "--for", "healthy", "--timeout", "15s")[0] == 0
    code, env = p.run("start", "api2")
    assert (code, env["error_code"]) == (1, "PORT_IN_USE")
    pid = p.ok("status", "api")["pid"]
    assert (
        env["error"] == f"api2: port {port} is already in use by Procler process 'api' (pid {pid})"
    )
    assert env["suggestion"] == "`procler stop api` first, or change api2's ports"
    assert env["data"]["holder"] == {
        "pid": pid,
        "command": env["data"]["holder"]["command"],
        "procler_process": "api",
    }
