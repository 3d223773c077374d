"""The real-stack points against real PostgreSQL 15 (started by the test on a free loopback
port, data in a temp dir): a one-shot migration runs once per session (the migrations table
counts), `kill -9` of the supervisor with a psql session open stops the database cleanly
(SIGINT, its stop_signal: a fast shutdown) and brings it back without crash recovery, a
killed postmaster is back at once, and `dependency_down` names the database down the chain.

As root, PostgreSQL runs as the `postgres` user (setpriv, which execs: signals reach the
postmaster itself). CI installs PostgreSQL (.ci/unit-tools.sh) and sets
PROCLER_REQUIRE_POSTGRES, so there these tests never skip.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from procler_testkit.harness import PY, Project, alive, wait_for

BIN = Path("/usr/lib/postgresql/15/bin")
if not (BIN / "postgres").exists():
    if os.environ.get("PROCLER_REQUIRE_POSTGRES"):
        raise RuntimeError(f"PostgreSQL 15 is required at {BIN}")
    pytest.skip("PostgreSQL 15 is not installed", allow_module_level=True)

AS_POSTGRES = (
    ["setpriv", "--reuid=postgres", "--regid=postgres", "--clear-groups"]
    if os.getuid() == 0
    else []
)
SLEEP = f'[{PY}, -c, "import time; time.sleep(600)"]'


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _folder() -> Path:
    """A temp dir the postgres user owns (pytest's are private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="procler-pg-"))
    _own(folder)
    return folder


@pytest.fixture(scope="module")
def template() -> Iterator[Path]:
    """One initdb for the module; each test copies it."""
    folder = _folder()
    subprocess.run(
        [*AS_POSTGRES, str(BIN / "initdb"), "-D", str(folder / "data"), "--auth=trust", "-U", "postgres"],
        check=True,
        capture_output=True,
        timeout=120,
    )  # fmt: skip
    yield folder / "data"
    shutil.rmtree(folder, ignore_errors=True)


def _own(path: Path) -> None:
    if os.getuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(path, user.pw_uid, user.pw_gid)


@pytest.fixture
def cluster(template: Path) -> Iterator[tuple[Path, int]]:
    """A fresh copy of the database's data directory, and a free port for it."""
    folder = _folder()
    subprocess.run(["cp", "-a", str(template), str(folder / "data")], check=True)
    (folder / "sock").mkdir()
    _own(folder / "sock")
    yield folder, free_port()
    shutil.rmtree(folder, ignore_errors=True)


def psql(port: int, sql: str) -> str:
    out = subprocess.run(
        ["psql", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "-tAc", sql],
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    return out.stdout.strip()


def stack(folder: Path, port: int) -> str:
    postgres = [*AS_POSTGRES, str(BIN / "postgres"), "-D", f"{folder}/data", "-p", str(port)]
    postgres += ["-k", f"{folder}/sock", "-c", "listen_addresses=127.0.0.1"]
    migrate = (
        f"psql -h 127.0.0.1 -p {port} -U postgres -v ON_ERROR_STOP=1 -c "
        "'CREATE TABLE IF NOT EXISTS migrations (at timestamptz); "
        "INSERT INTO migrations VALUES (now())'"
    )
    return f"""
version: 1
processes:
  db:
    args: {postgres}
    stop_signal: SIGINT
    stop_timeout: 30s
    restart: {{policy: always, backoff: {{initial: 120s, max: 120s}}}}
    healthcheck: {{test: "pg_isready -h 127.0.0.1 -p {port} -U postgres", interval: 1s}}
  migrate:
    command: {migrate}
    restart: "no"
    depends_on: [{{name: db, condition: healthy}}]
  api:
    args: {SLEEP}
    depends_on: [{{name: migrate, condition: completed_successfully}}, db]
  web:
    args: {SLEEP}
    depends_on: [api]
recipes:
  deploy:
    steps:
      - stop: api
      - start: api
"""


def db_log(p: Project) -> str:
    return "\n".join(
        line["text"] for line in p.ok("logs", "db", "--run", "all", "--tail", "5000")["lines"]
    )


def test_postgres_migrates_once_a_session_and_stops_cleanly_after_kill_9(
    make_project: Callable[[str], Project], cluster: tuple[Path, int]
) -> None:
    folder, port = cluster
    p = make_project(stack(folder, port))
    p.ok("up", "--wait", "--timeout", "60s")
    assert psql(port, "SELECT count(*) FROM migrations") == "1"
    # (1) start of a running api, a deploy recipe: the migration does not run again
    assert p.ok("start", "api")["already_running"] is True
    assert p.ok("recipe", "run", "deploy")["status"] == "succeeded"
    assert psql(port, "SELECT count(*) FROM migrations") == "1"
    # (2) kill -9 of the supervisor with a session open: SIGINT, a clean stop, back once
    session = subprocess.Popen(
        ["psql", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert wait_for(
            lambda: (
                psql(
                    port,
                    "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'",
                )
                >= "2"
            )
        )
        old = p.ok("status", "db")["pid"]
        os.kill(p.supervisor_pid(), signal.SIGKILL)
        back = p.ok("wait", "db", "--for", "healthy", "--timeout", "60s")
        assert (back["status"], back["restarts"]) == ("healthy", 1)
        assert not alive(old)
    finally:
        session.kill()
        session.wait()
        assert session.stdin is not None
        session.stdin.close()
    log = db_log(p)
    # each postmaster found a clean shutdown (initdb's, then the sentinel's), no crash
    assert log.count("database system was shut down at") == 2
    assert "not properly shut down" not in log and "automatic recovery" not in log
    assert "lock file" not in log
    p.ok("up", "--wait", "--timeout", "60s")
    assert psql(port, "SELECT count(*) FROM migrations") == "1"  # same session
    rows = {r["name"]: r for r in p.ok("status")["processes"]}
    assert [(n, r["status"], r["dependency_down"]) for n, r in rows.items()] == [
        ("db", "healthy", None),
        ("migrate", "exited", None),  # completed: never down
        ("api", "running", None),
        ("web", "running", None),
    ]
    # (8) the database down: named at the root of every chain
    stopped = p.ok("stop", "db")
    assert stopped["dependents_running"] == ["api", "web"]
    web = p.ok("status", "web")
    assert (web["dependency_down"], web["dependency_path"]) == ("db", ["web", "api", "db"])
    # (3) a killed postmaster is back at once, whatever its 120 s backoff
    p.ok("start", "db", "--timeout", "60s")
    postmaster = p.ok("wait", "db", "--for", "healthy", "--timeout", "60s")["pid"]
    os.kill(postmaster, signal.SIGKILL)
    assert wait_for(lambda: not alive(postmaster) and p.ok("status", "db")["pid"] != postmaster, 30)
    again = p.ok("wait", "db", "--for", "healthy", "--timeout", "60s")
    assert again["last_exit"]["reason"].endswith("; restart 1/5 at once")
    # a new session runs the migration again
    p.ok("down")
    p.ok("up", "--wait", "--timeout", "60s")
    assert psql(port, "SELECT count(*) FROM migrations") == "2"
