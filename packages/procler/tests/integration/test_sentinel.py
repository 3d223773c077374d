"""The sentinel stops the runs it was told of as `stop` would: each run's stop signal, its
stop timeout, then SIGKILL; it waits until the killed are gone, and lets go of the project
lock as soon as its pipe closes (a new supervisor waits for the runs itself)."""

from __future__ import annotations

import fcntl
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from procler_testkit.harness import PY, alive, wait_for

PGISH = Path(__file__).parent / "scripts" / "pgish.py"
SENTINEL = [sys.executable, "-m", "procler.supervisor.sentinel"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


STARTED: list[subprocess.Popen[bytes]] = []


@pytest.fixture(autouse=True)
def _nothing_left() -> Iterator[None]:
    yield
    for proc in STARTED:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    STARTED.clear()


def spawn(
    argv: list[str],
    *,
    start_new_session: bool = False,
    stdin: int | None = None,
    stdout: int | None = None,
    pass_fds: Sequence[int] = (),
) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        argv, start_new_session=start_new_session, stdin=stdin, stdout=stdout, pass_fds=pass_fds
    )
    STARTED.append(proc)
    return proc


def serve(tmp_path: Path) -> tuple[subprocess.Popen[bytes], socket.socket]:
    """A pgish server in its own session, with one client connected (as psql would be)."""
    port = free_port()
    server = spawn(
        [PY, str(PGISH), str(port), str(tmp_path), "0"],
        start_new_session=True,
        stdout=subprocess.DEVNULL,
    )
    client = socket.socket()
    assert wait_for(lambda: client.connect_ex(("127.0.0.1", port)) == 0)
    return server, client


def events(tmp_path: Path) -> list[str]:
    return [line.split()[0] for line in (tmp_path / "events").read_text().splitlines()]


def test_a_run_is_stopped_with_its_own_signal_not_term(tmp_path: Path) -> None:
    server, client = serve(tmp_path)
    sentinel = spawn([*SENTINEL, str(tmp_path)], stdin=subprocess.PIPE)
    assert sentinel.stdin is not None
    sentinel.stdin.write(f"+db.1.x {server.pid} {int(signal.SIGINT)} 10\n".encode())
    sentinel.stdin.close()  # the supervisor is gone
    assert sentinel.wait(30) == 0
    # SIGINT is a fast shutdown: clean although a client is still connected (TERM would
    # have waited for it, and a SIGKILL a second later left the server stopped uncleanly).
    assert server.wait(5) == 0
    assert events(tmp_path) == ["start", "clean"]
    assert not (tmp_path / "server.pid").exists()
    client.close()


def test_a_run_that_ignores_its_signal_is_killed_after_its_timeout_and_waited_for(
    tmp_path: Path,
) -> None:
    ignoring = spawn(
        [
            PY,
            "-c",
            "import signal, time; signal.signal(signal.SIGINT, signal.SIG_IGN); time.sleep(600)",
        ],
        start_new_session=True,
    )
    sentinel = spawn([*SENTINEL, str(tmp_path)], stdin=subprocess.PIPE)
    assert sentinel.stdin is not None
    sentinel.stdin.write(f"+w.1.x {ignoring.pid} {int(signal.SIGINT)} 0.3\n".encode())
    sentinel.stdin.close()
    assert sentinel.wait(30) == 0
    # the sentinel ends only once the killed one is gone (a zombie holds nothing)
    assert not alive(ignoring.pid)
    assert ignoring.wait(5) == -signal.SIGKILL


def test_the_lock_is_free_as_soon_as_the_pipe_closes(tmp_path: Path) -> None:
    server, client = serve(tmp_path)
    (tmp_path / "hold").touch()  # its fast shutdown lasts until the test says
    lock = os.open(tmp_path, os.O_RDONLY)
    fcntl.flock(lock, fcntl.LOCK_EX)
    sentinel = spawn([*SENTINEL, str(tmp_path), str(lock)], stdin=subprocess.PIPE, pass_fds=(lock,))
    os.close(lock)  # the supervisor died: only the sentinel holds the lock now
    other = os.open(tmp_path, os.O_RDONLY)
    try:
        assert sentinel.stdin is not None
        sentinel.stdin.write(f"+db.1.x {server.pid} {int(signal.SIGINT)} 30\n".encode())
        sentinel.stdin.flush()

        def free() -> bool:
            try:
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return False
            return True

        assert not free()  # the supervisor's pipe is open: the lock is held
        sentinel.stdin.close()
        assert wait_for(free)
        assert sentinel.poll() is None and alive(server.pid)  # still sweeping
        (tmp_path / "hold").unlink()
        assert sentinel.wait(30) == 0
        assert events(tmp_path) == ["start", "clean"]
    finally:
        os.close(other)
        client.close()
