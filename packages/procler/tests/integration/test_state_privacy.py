"""The state directory holds the captured environment and every process's output: another
local user must not read any of it."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from procler_testkit.accounts import other_user
from procler_testkit.harness import PY, Project, supervisors_of, wait_for

SECRET = "s3cr3t-token-2f9c"


@pytest.fixture
def shared_project(monkeypatch: pytest.MonkeyPatch) -> Iterator[Project]:
    """A project in a directory every user can traverse, as a home or /srv checkout is."""
    if os.geteuid() != 0:
        pytest.skip("reading as a second user needs root to create and become that user")
    top = Path(tempfile.mkdtemp(prefix="procler-privacy-"))
    top.chmod(0o755)  # mkdtemp makes it 0700, which would hide the state from others anyway
    monkeypatch.setenv("I14_API_TOKEN", SECRET)  # captured into state.db at first start
    project = Project(
        top / "proj",
        f"""version: 1
processes:
  app:
    args: [{PY}, -c, "import time; print('token={SECRET}', flush=True); time.sleep(600)"]
""",
    )
    (top / "proj").chmod(0o755)
    (top / "proj" / ".procler").chmod(0o755)
    try:
        yield project
    finally:
        project.close()
        assert wait_for(lambda: supervisors_of(project.root) == [])  # it closes state.db last
        shutil.rmtree(top)


def test_state_files_are_private_to_their_user(shared_project: Project) -> None:
    user = other_user()
    p = shared_project
    p.ok("define", "extra", "--command", "sleep 60")
    p.ok("start", "app")
    assert wait_for(
        lambda: [x["text"] for x in p.ok("logs", "app")["lines"]] == [f"token={SECRET}"]
    )
    state = p.root / ".procler" / "state"
    dirs, files = [state], []
    for folder, subdirs, names in os.walk(state):
        dirs += [Path(folder, d) for d in subdirs]
        files += [Path(folder, n) for n in names]
    assert {f.name for f in files} >= {
        "state.db",
        "state.db-wal",
        "state.db-shm",
        "supervisor.log",
        "supervisor.sock",
        "supervisor.lock",
        "definitions.json",
        "definitions.lock",
    }
    assert {str(d.relative_to(state)): stat.S_IMODE(d.stat().st_mode) for d in dirs} == {
        ".": 0o700,
        "logs": 0o700,
        "logs/app": 0o700,
    }
    modes = {str(f.relative_to(state)): stat.S_IMODE(f.lstat().st_mode) for f in files}
    assert modes == dict.fromkeys(modes, 0o600)
    for path in [*files, state / "state.db-wal"]:
        read = subprocess.run(["cat", str(path)], user=user, capture_output=True, timeout=10)
        assert (read.returncode, SECRET.encode() in read.stdout) == (1, False), path
        assert b"Permission denied" in read.stderr


def test_another_user_reaches_neither_the_socket_nor_the_api_token(
    shared_project: Project,
) -> None:
    user = other_user()
    p = shared_project
    token_file = Path(p.ok("serve", "--port", "0")["token_file"])
    sock = p.root / ".procler" / "state" / "supervisor.sock"
    probe = f"import socket; socket.socket(socket.AF_UNIX).connect({str(sock)!r})"
    python = "/usr/bin/python3"  # readable by every user, unlike a virtualenv under /root
    as_root = subprocess.run([python, "-c", probe], capture_output=True, text=True, timeout=30)
    assert as_root.returncode == 0, as_root.stderr  # the probe itself connects
    as_other = subprocess.run(
        [python, "-c", probe], user=user, capture_output=True, text=True, timeout=30
    )
    assert (as_other.returncode, as_other.stderr.strip().splitlines()[-1]) == (
        1,
        "PermissionError: [Errno 13] Permission denied",
    )
    read = subprocess.run(["cat", str(token_file)], user=user, capture_output=True, timeout=10)
    assert (read.returncode, read.stdout) == (1, b"")
