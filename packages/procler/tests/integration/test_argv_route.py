"""The console entry's shortcut: a running supervisor answers its own commands from argv."""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from procler_testkit.accounts import OTHER_USER, SQUATTER, account, run_as
from procler_testkit.harness import PROCLER, PY, Project, sockets_of, wait_for

from procler.project import socket_path
from procler.wire import ARGV_ROUTE, request

CONFIG = f"""
version: 1
processes:
  api:
    args: [{PY}, -c, "import time; time.sleep(600)"]
"""
FULL_CLI = [sys.executable, "-c", "from procler.cli import main; main()"]


def offer(
    project: Project, *argv: str, cwd: Path | None = None, config: str = ""
) -> tuple[int, dict[str, str], bytes]:
    """POST argv to the project's supervisor as the entry does; (status, headers, body)."""
    where = str(cwd or project.root)
    config = config or str(project.root / ".procler" / "config.yaml")
    body = b"\0".join(os.fsencode(p) for p in (where, config, *argv))
    return request(socket_path(str(project.root)), "POST", ARGV_ROUTE, body, 30.0)


@pytest.fixture
def running(make_project: Callable[[str], Project]) -> Project:
    project = make_project(CONFIG)
    assert project.ok("start", "api")["status"] == "running"
    return project


def test_status_is_answered_from_argv(running: Project) -> None:
    status, headers, body = offer(running, "status", "api")
    code, _, text = body.partition(b"\n")
    assert (status, headers["x-reply-within"], code) == (200, "60", b"0")
    assert headers["content-length"] == str(len(body))  # a quick answer goes out whole
    answer = json.loads(text)
    assert (answer["success"], answer["data"]["name"], answer["data"]["status"]) == (
        True,
        "api",
        "running",
    )


def test_a_slow_answer_sends_its_headers_first(running: Project) -> None:
    """Headers ahead (chunked body), bounded by the command's own --timeout plus a margin."""
    status, headers, body = offer(running, "wait", "api", "--for", "exited", "--timeout", "1500ms")
    code, _, text = body.partition(b"\n")
    assert (status, headers["x-reply-within"], headers["transfer-encoding"], code) == (
        200,
        "31.5",
        "chunked",
        b"1",
    )
    assert json.loads(text)["error_code"] == "TIMEOUT"


@pytest.mark.parametrize(
    "argv",
    [
        ["list"],  # runs in the CLI
        ["logs", "api"],
        ["daemon", "restart"],  # the CLI waits for the next supervisor
        ["status", "--help"],
        ["--version"],
        ["capabilities"],
        ["staus"],  # usage errors come from the full CLI
    ],
)
def test_commands_the_cli_runs_itself_are_declined(running: Project, argv: list[str]) -> None:
    status, headers, body = offer(running, *argv)
    assert (status, "x-reply-within" in headers, body) == (204, False, b"")


def test_a_malformed_offer_is_declined(running: Project) -> None:
    sock = socket_path(str(running.root))
    assert request(sock, "POST", ARGV_ROUTE, b"", 30.0)[0] == 204
    assert request(sock, "POST", ARGV_ROUTE, b"/only/a/cwd", 30.0)[0] == 204


def test_another_projects_config_is_declined(
    running: Project, make_project: Callable[[str], Project]
) -> None:
    other = make_project(CONFIG)
    other_config = str(other.root / ".procler" / "config.yaml")
    assert offer(running, "status", config=other_config)[0] == 204
    # --config naming another file than the one the entry resolved
    assert offer(running, "status", "--config", other_config)[0] == 204
    assert offer(running, "--config", ".procler/config.yaml", "status")[0] == 200


def test_entry_answers_like_the_full_cli(running: Project) -> None:
    fast = json.loads(_stdout(running, [PROCLER]))
    full = json.loads(_stdout(running, FULL_CLI))
    drop = ("uptime_seconds", "cpu_percent", "memory_rss_bytes")
    assert {k: v for k, v in fast["data"].items() if k not in drop} == {
        k: v for k, v in full["data"].items() if k not in drop
    }


def _stdout(project: Project, cmd: list[str]) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROCLER_")}
    proc = subprocess.run(
        [*cmd, "status", "api"],
        cwd=project.root,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert (proc.returncode, proc.stderr) == (0, "")
    return proc.stdout


def test_entry_interrupted_while_waiting_exits_130(running: Project) -> None:
    before = sockets_of(running.supervisor_pid())
    proc = subprocess.Popen(
        [PROCLER, "wait", "api", "--for", "exited", "--timeout", "60s"],
        cwd=running.root,
        stdout=subprocess.PIPE,
        text=True,
    )
    # the supervisor holds the request once its connection shows up in the fd table
    assert wait_for(lambda: sockets_of(running.supervisor_pid()) > before)
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=30)
    assert (proc.returncode, json.loads(out)["error_code"]) == (130, "INTERRUPTED")
    assert running.ok("status", "api")["status"] == "running"


def test_the_answered_path_stays_light(running: Project) -> None:
    """Start-up is a requirement: `procler status` loads only these modules of ours."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", PROCLER, "status"],
        cwd=running.root,
        capture_output=True,
        text=True,
        timeout=60,
    )
    imported = {line.rsplit("|", 1)[1].strip() for line in proc.stderr.splitlines()[1:]}
    ours = sorted(m for m in imported if m.split(".")[0] in ("procler", "agentcli"))
    assert (proc.returncode, ours) == (
        0,
        [
            "agentcli",
            "agentcli.envelope",
            "procler",
            "procler.entry",
            "procler.project",
            "procler.wire",
        ],
    )
    assert (
        imported & {"json", "typing", "dataclasses", "re", "enum", "socket", "importlib"} == set()
    )


def test_a_long_project_path_keeps_its_socket_in_its_state_directory(tmp_path: Path) -> None:
    """sun_path holds 108 bytes: a deeper project's socket is still its own, in its state
    directory, bound and reached through a descriptor of that folder."""
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    project = Project(deep, CONFIG)
    link = tmp_path / "link"
    link.symlink_to(deep)
    sock = deep / ".procler" / "state" / "supervisor.sock"
    try:
        assert project.ok("start", "api")["status"] == "running"
        assert socket_path(str(deep)) == socket_path(str(link)) == str(sock)
        assert len(str(sock).encode()) > 108
        assert stat.S_IMODE(sock.stat().st_mode) == 0o600
        via_link = Project(link, CONFIG)  # same files, reached through the symlink
        assert via_link.ok("status", "api")["pid"] == project.ok("status", "api")["pid"]
    finally:
        project.close()
    assert wait_for(lambda: not sock.exists())  # removed as the supervisor ends


def test_another_user_squatting_a_shared_path_cannot_block_a_deep_project(
    tmp_path: Path,
) -> None:
    """No predictable shared path is used: the names Procler 0.3 and earlier versions took
    in /tmp for deep projects, made first by another user, change nothing."""
    user, squatter = account(OTHER_USER), account(SQUATTER)
    top = Path(tempfile.mkdtemp(prefix="procler-squat-"))
    made: list[Path] = []
    try:
        deep = top / ("d" * 60) / ("e" * 60)
        (deep / ".procler").mkdir(parents=True)
        (deep / ".procler" / "config.yaml").write_text(
            "processes:\n  api:\n    command: sleep 600\n"  # runnable by any user
        )
        for folder in (top, top / ("d" * 60), deep, deep / ".procler"):
            os.chown(folder, user.pw_uid, user.pw_gid)
            folder.chmod(0o755)
        squatted = [Path(f"/tmp/procler-{user.pw_uid}"), Path(f"/tmp/procler-{user.pw_uid}.sock")]
        for path in squatted:
            if not path.exists():
                path.mkdir(mode=0o777)
                path.chmod(0o777)
                os.chown(path, squatter.pw_uid, squatter.pw_gid)
                made.append(path)
        started = run_as(user.pw_name, deep, "start", "api")
        assert started.returncode == 0, started.stdout + started.stderr
        status = json.loads(run_as(user.pw_name, deep, "status", "api").stdout)
        assert status["data"]["status"] == "running"
        sock = deep / ".procler" / "state" / "supervisor.sock"
        assert (sock.stat().st_uid, stat.S_IMODE(sock.stat().st_mode)) == (user.pw_uid, 0o600)
    finally:
        run_as(user.pw_name, deep, "daemon", "stop")
        shutil.rmtree(top)
        for path in made:
            path.rmdir()
