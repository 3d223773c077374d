"""`stop_command:` with real processes: it runs in the process's environment and cwd
before stop_signal, bounded by its timeout; and PostgreSQL with a client connected is
stopped cleanly by `pg_ctl stop -m fast`."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Callable

from procler_testkit.harness import PY, Project, alive, sentinel_running, wait_for
from procler_testkit.postgres import cluster

# Ignores SIGTERM; exits 0 once the file `stop-now` appears in its folder.
STUBBORN = (
    f'[{PY}, -c, "import os, signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); '
    "open('up', 'w').close()\\nwhile not os.path.exists('stop-now'): time.sleep(0.02)\"]"
)


def transitions(p: Project, name: str) -> list[str]:
    return [t["reason"] for t in p.ok("history", name, "--limit", "50")["transitions"]]


def test_the_stop_command_runs_where_the_process_runs_and_ends_it(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(
        f"""version: 1
processes:
  stubborn:
    args: {STUBBORN}
    cwd: work
    env: {{MARK: from-the-process-env}}
    stop_command: echo "$MARK" > seen && touch stop-now
    stop_timeout: 30s
"""
    )
    (p.root / "work").mkdir()
    p.ok("start", "stubborn")
    assert wait_for((p.root / "work" / "up").exists)
    pid = p.ok("status", "stubborn")["pid"]
    assert p.ok("stop", "stubborn")["status"] == "stopped"
    after = p.ok("status", "stubborn")
    assert (after["status"], after["last_exit"]["code"], after["last_exit"]["signal"]) == (
        "stopped",
        0,
        None,
    )
    assert (p.root / "work" / "seen").read_text() == "from-the-process-env\n"
    assert not alive(pid)
    assert "stop command: exit 0: " in transitions(p, "stubborn")
    assert p.marked_pids() == []


def test_the_sentinel_runs_the_stop_command_when_the_supervisor_dies(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(
        f"""version: 1
processes:
  stubborn:
    args: {STUBBORN}
    env: {{MARK: told-to-the-sentinel}}
    stop_command: echo "$MARK" > seen && touch stop-now
"""
    )
    p.ok("start", "stubborn")
    assert wait_for((p.root / "up").exists)
    pid = p.ok("status", "stubborn")["pid"]
    os.kill(p.supervisor_pid(), signal.SIGKILL)
    assert wait_for(lambda: not sentinel_running(str(p.root)), 20)
    # ended by its stop command (it ignores TERM, and the sweep's KILL came too late to matter)
    assert (p.root / "seen").read_text() == "told-to-the-sentinel\n"
    assert (p.root / "stop-now").exists()
    assert not alive(pid)
    assert p.marked_pids() == []


def test_a_stop_command_past_its_timeout_is_killed_and_stop_signal_follows(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(
        f"""version: 1
processes:
  sleeper:
    args: [{PY}, -c, "import time; time.sleep(600)"]
    stop_command: {{command: "sleep 600", timeout: 300ms}}
"""
    )
    p.ok("start", "sleeper")
    p.ok("stop", "sleeper")
    after = p.ok("status", "sleeper")
    assert (after["status"], after["last_exit"]["signal"]) == ("stopped", 15)
    assert "stop command: exec timed out after 0.3s" in transitions(p, "sleeper")
    assert p.marked_pids() == []  # the stop command's `sleep 600` too


def test_postgres_with_a_client_connected_stops_cleanly_with_pg_ctl(
    make_project: Callable[[str], Project],
) -> None:
    with cluster() as pg:
        p = make_project(
            f"""version: 1
processes:
  pg:
    args: {json.dumps(pg.server())}
    healthcheck: {{exec: {json.dumps(pg.ready())}, interval: 200ms}}
    stop_command: {json.dumps(pg.fast_stop())}
"""
        )
        p.ok("start", "pg")
        assert p.run("wait", "pg", "--for", "healthy", "--timeout", "60s")[0] == 0
        pg.query("create table kept (n int); insert into kept values (42)")
        with pg.session() as client:
            assert client.stdin is not None and client.stdout is not None
            client.stdin.write("select 'connected';\n")
            client.stdin.flush()
            assert client.stdout.readline() == "connected\n"
            p.ok("stop", "pg")
            after = p.ok("status", "pg")
            # pg_ctl's fast shutdown ended it: exit 0, no signal of ours, no SIGKILL
            assert (after["status"], after["last_exit"]["code"], after["last_exit"]["signal"]) == (
                "stopped",
                0,
                None,
            )
            client.kill()
        first = [
            line["text"] for line in p.ok("logs", "pg", "--run", "1", "--tail", "200")["lines"]
        ]
        assert any("received fast shutdown request" in t for t in first), first
        assert any("database system is shut down" in t for t in first), first
        p.ok("start", "pg")
        assert p.run("wait", "pg", "--for", "healthy", "--timeout", "60s")[0] == 0
        second = [
            line["text"] for line in p.ok("logs", "pg", "--run", "2", "--tail", "200")["lines"]
        ]
        assert any("database system was shut down at" in t for t in second), second
        assert not any("automatic recovery" in t or "not properly shut down" in t for t in second)
        assert pg.query("select n from kept") == "42"
        # the supervisor killed, a client connected: its sentinel stops PostgreSQL with
        # pg_ctl too, so the next start finds it shut down cleanly
        pid = p.ok("status", "pg")["pid"]
        with pg.session() as client:
            assert client.stdin is not None and client.stdout is not None
            client.stdin.write("select 'connected';\n")
            client.stdin.flush()
            assert client.stdout.readline() == "connected\n"
            os.kill(p.supervisor_pid(), signal.SIGKILL)
            assert wait_for(lambda: not sentinel_running(str(p.root)), 30)
            client.kill()
        assert not alive(pid)
        p.ok("start", "pg")  # the new supervisor brings it back (it should run)
        assert p.run("wait", "pg", "--for", "healthy", "--timeout", "60s")[0] == 0
        third = [line["text"] for line in p.ok("logs", "pg", "--tail", "200")["lines"]]
        assert any("database system was shut down at" in t for t in third), third
        assert not any("automatic recovery" in t or "not properly shut down" in t for t in third)
        p.ok("stop", "pg")
        assert p.marked_pids() == []
