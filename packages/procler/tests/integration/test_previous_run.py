"""After `kill -9` of the supervisor, against a server that stops as PostgreSQL does (pgish.py:
TERM waits for the clients, INT is a fast shutdown): the sentinel stops the run with its
stop_signal and stop_timeout, the new supervisor starts nothing while the old run still
exists and says so in status, and it restores in dependency order with health gating."""

from __future__ import annotations

import os
import signal
import socket
from collections.abc import Callable
from pathlib import Path

from procler_testkit.harness import PY, Project, alive

PGISH = Path(__file__).parent / "scripts" / "pgish.py"
# The api refuses to run while the database does not accept connections (and says so).
API = """
import socket, sys, time
try:
    socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=2).close()
except OSError:
    open(sys.argv[2], "a").write("db refused\\n")
    sys.exit(1)
open(sys.argv[2], "a").write("connected\\n")
time.sleep(600)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def stack(tmp_path: Path, port: int, api: bool = False) -> str:
    (tmp_path / "api.py").write_text(API)
    body = f"""
version: 1
processes:
  db:
    args: [{PY}, {PGISH}, "{port}", {tmp_path}]
    stop_signal: SIGINT
    stop_timeout: 30s
    healthcheck: {{tcp: {{port: {port}}}, interval: 1s}}
"""
    if api:
        body += f"""
  api:
    args: [{PY}, {tmp_path}/api.py, "{port}", {tmp_path}/api.log]
    depends_on: [{{name: db, condition: healthy}}]
"""
    return body


def db_events(tmp_path: Path) -> list[str]:
    return [line.split()[0] for line in (tmp_path / "events").read_text().splitlines()]


def connect(port: int) -> socket.socket:
    client = socket.create_connection(("127.0.0.1", port))  # a psql session left open
    return client


def test_the_sentinel_stops_a_database_cleanly_and_it_comes_back_once(
    make_project: Callable[[str], Project], tmp_path: Path
) -> None:
    port = free_port()
    p = make_project(stack(tmp_path, port))
    first = p.ok("start", "db")["pid"]
    client = connect(port)
    try:
        os.kill(p.supervisor_pid(), signal.SIGKILL)
        back = p.ok("wait", "db", "--for", "healthy", "--timeout", "60")
        assert (back["status"], back["restarts"]) == ("healthy", 1)
        assert back["pid"] != first and not alive(first)
        # SIGINT (its stop_signal), not TERM then SIGKILL after 1 s: a clean stop although
        # a client was connected, and the next start neither refused nor recovered.
        assert db_events(tmp_path) == ["start", "clean", "start"]
    finally:
        client.close()


def test_the_new_supervisor_waits_for_the_old_run_and_says_so(
    make_project: Callable[[str], Project], tmp_path: Path
) -> None:
    port = free_port()
    p = make_project(stack(tmp_path, port))
    first = p.ok("start", "db")["pid"]
    (tmp_path / "hold").touch()  # its shutdown takes as long as the test says
    client = connect(port)
    try:
        os.kill(p.supervisor_pid(), signal.SIGKILL)
        waiting = p.ok("status", "db")
        assert (waiting["status"], waiting["desired"], waiting["pid"]) == (
            "stopped",
            "running",
            None,
        )
        assert waiting["previous_run"] == {
            "pids": [first],
            "since": waiting["previous_run"]["since"],
            "stop_signal": "SIGINT",
            "stop_timeout": 30.0,
            "ended": None,
        }
        assert waiting["why"] == (
            f"its run from the previous supervisor (pid {first}) is still ending: the "
            "sentinel stops it with SIGINT and SIGKILLs it after 30s; no run of it starts before"
        )
        assert alive(first) and db_events(tmp_path) == ["start"]
        (tmp_path / "hold").unlink()
        back = p.ok("wait", "db", "--for", "healthy", "--timeout", "60")
        assert back["restarts"] == 1 and "previous_run" not in back
        assert db_events(tmp_path) == ["start", "clean", "start"]
    finally:
        client.close()


def test_restore_starts_a_dependent_once_its_dependency_is_healthy(
    make_project: Callable[[str], Project], tmp_path: Path
) -> None:
    port = free_port()
    p = make_project(stack(tmp_path, port, api=True))
    p.ok("up", "--wait", "--timeout", "60")
    for round_ in (1, 2, 3):
        os.kill(p.supervisor_pid(), signal.SIGKILL)
        ready = p.ok("up", "--wait", "--timeout", "60")
        assert [(r["name"], r["status"], r["restarts"]) for r in ready["processes"]] == [
            ("db", "healthy", round_),
            ("api", "running", round_),
        ]
    # The db listens 0.3 s after it starts: an api started beside it would be refused.
    assert (tmp_path / "api.log").read_text().splitlines() == ["connected"] * 4
    assert db_events(tmp_path) == ["start", "clean"] * 3 + ["start"]
