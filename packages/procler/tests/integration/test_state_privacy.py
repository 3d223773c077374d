"""The state directory holds the captured environment and every process's output: another
local user must not read any of it."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from procler_testkit.accounts import other_user, run_as
from procler_testkit.harness import PY, Project, supervisors_of, wait_for

from agentcli.commands import Command, command_args
from procler.declarations import APP

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


# Commands that never open a project: they answer the same to every user.
NO_PROJECT = {"capabilities", "config schema", "help-llm", "mcp", "tui", "config init"}
VALUE = {"integer": "1", "number": "1", "duration": "1s", "key_value": "A=1", "path": "x"}


def minimal_argv(command: Command) -> list[str]:
    """The command with each required argument given a value it accepts."""
    argv = command.name.split()
    for arg in command_args(command):
        if arg.type == "remainder":
            argv += ["--", "true"]  # what `run` runs
        if not arg.required or arg.type == "remainder":
            continue
        value = arg.choices[0] if arg.choices else VALUE.get(arg.type, "app")
        if arg.positional:
            argv.append(value)
        else:
            argv += [arg.flags[-1], value]
    if any(a.name == "--timeout" for a in command_args(command)):
        argv += ["--timeout", "1s"]
    return argv


def test_every_command_of_another_user_in_the_project_is_permission_denied(
    shared_project: Project,
) -> None:
    """Whatever another user runs in the owner's project is refused at once (exit 2,
    PERMISSION_DENIED, naming the owner), and changes nothing: the owner's process runs on,
    under the same supervisor."""
    user = other_user()
    p = shared_project
    pid = p.ok("start", "app")["pid"]
    supervisor = p.supervisor_pid()
    config = (p.root / ".procler" / "config.yaml").read_bytes()
    commands = [
        c for c in APP.commands if c.name not in NO_PROJECT and not c.name.startswith("import")
    ]
    assert len(commands) > 50
    for command in commands:
        argv = minimal_argv(command)
        answer = run_as(user, p.root, *argv, timeout=30)
        envelope = json.loads(answer.stdout.splitlines()[-1])
        assert (answer.returncode, envelope["error_code"]) == (2, "PERMISSION_DENIED"), (
            argv,
            envelope,
        )
        assert envelope["error"] == (
            f"the project's state {p.root / '.procler' / 'state'} belongs to root: only that "
            "user can run Procler commands in this project"
        )
    # import writes the file -o names (the project's config by default), opening no state:
    # merging into the owner's config is refused the same way.
    procfile = p.root.parent / "Procfile"
    procfile.write_text("other: sleep 1\n")
    procfile.chmod(0o644)
    answer = run_as(user, p.root, "import", "procfile", str(procfile), "--merge", timeout=30)
    envelope = json.loads(answer.stdout)
    assert (answer.returncode, envelope["error_code"], envelope["error"]) == (
        2,
        "PERMISSION_DENIED",
        "cannot write .procler/config.yaml: permission denied",
    )
    assert (p.root / ".procler" / "config.yaml").read_bytes() == config
    assert (p.ok("status", "app")["pid"], p.supervisor_pid()) == (pid, supervisor)
    assert p.ok("list")["processes"][0]["name"] == "app"
