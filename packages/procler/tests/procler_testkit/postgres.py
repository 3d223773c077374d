"""A real PostgreSQL 15 for the tests: a cluster made by initdb in a temporary folder, for
the test to run under Procler on a free loopback port.

PostgreSQL refuses to run as root; when the tests do, its programs run as the `postgres`
user (setpriv, which execs: no process in between), in a folder outside pytest's own
temporary folder (which only root may enter)."""

from __future__ import annotations

import os
import pwd
import shlex
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

PG_BIN = Path("/usr/lib/postgresql/15/bin")
PSQL = PG_BIN / "psql"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    def __init__(self, data: Path, port: int, run_as: list[str]) -> None:
        self.data = data
        self.port = port
        self.run_as = run_as

    def argv(self, program: str, *args: str) -> list[str]:
        return [*self.run_as, str(PG_BIN / program), *args]

    def server(self) -> list[str]:
        """postgres in the foreground, on loopback only, its socket in its data folder."""
        return self.argv(
            "postgres",
            "-D",
            str(self.data),
            "-p",
            str(self.port),
            "-k",
            str(self.data),
            "-c",
            "listen_addresses=127.0.0.1",
        )

    def fast_stop(self) -> str:
        """`pg_ctl stop -m fast` as one shell command line."""
        return shlex.join(self.argv("pg_ctl", "stop", "-m", "fast", "-D", str(self.data)))

    def ready(self) -> str:
        return shlex.join([str(PG_BIN / "pg_isready"), "-h", "127.0.0.1", "-p", str(self.port)])

    def session(self) -> subprocess.Popen[str]:
        """An open psql session (its stdin kept open): a client PostgreSQL must wait for
        on a smart shutdown."""
        return subprocess.Popen(
            [
                str(PSQL),
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                "postgres",
                "-X",
                "-q",
                "-A",
                "-t",
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )

    def query(self, sql: str) -> str:
        done = subprocess.run(
            [
                str(PSQL),
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                "postgres",
                "-X",
                "-A",
                "-t",
                "-c",
                sql,
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        return done.stdout.strip()


def require_postgres() -> None:
    if (PG_BIN / "postgres").exists() and PSQL.exists():
        return
    if os.environ.get("PROCLER_REQUIRE_POSTGRES"):  # CI installs it (.ci/stack-deps.sh)
        pytest.fail("PostgreSQL 15 is not installed in CI")
    pytest.skip("PostgreSQL 15 is not installed (.ci/stack-deps.sh installs it)")


@contextmanager
def cluster() -> Iterator[Cluster]:
    """A new cluster (trust authentication, user postgres) and a free port; removed after."""
    require_postgres()
    folder = Path(tempfile.mkdtemp(prefix="procler-pg-"))
    run_as: list[str] = []
    if os.getuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(folder, user.pw_uid, user.pw_gid)
        run_as = ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups"]
    made = Cluster(folder / "data", free_port(), run_as)
    try:
        subprocess.run(
            made.argv("initdb", "-D", str(made.data), "-A", "trust", "-U", "postgres", "--no-sync"),
            capture_output=True,
            check=True,
            timeout=120,
        )
        yield made
    finally:
        shutil.rmtree(folder, ignore_errors=True)
