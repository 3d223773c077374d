"""The real CLI against a real supervisor and real child processes."""

from __future__ import annotations

import os
import shlex
import signal
import socket
import stat
import subprocess
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from procler_testkit.harness import PROCLER, PY, Project, alive, supervisors_of, wait_for

TREE = Path(__file__).parent / "scripts" / "tree.py"

SLEEPER = f"""
version: 1
processes:
  api:
    args: [{PY}, -c, "import time; time.sleep(600)"]
    env: {{GREETING: hello}}
  tree:
    command: "{PY} {TREE} & wait"
  stubborn:
    args: [{PY}, -c, "import signal,time; signal.signal(signal.SIGTERM, signal.SIG_IGN); print('ready', flush=True); time.sleep(600)"]
    stop_timeout: 500ms
  crasher:
    args: [{PY}, -c, "import time,sys; time.sleep(0.3); sys.exit(3)"]
    restart: {{policy: on-failure, max_restarts: 2, backoff: {{initial: 50ms, max: 100ms}}}}
  missing:
    command: "no-such-program-xyz $HOME"
  missing_direct:
    command: no-such-program-xyz --flag
  daemonizer:
    args: [{PY}, -c, "import os,time,sys; pid=os.fork(); (os.setsid(), time.sleep(600)) if pid==0 else (time.sleep(0.5), sys.exit(0))"]
  envdump:
    args: [{PY}, -c, "import os,time; print(os.environ['PROCLER_PROCESS_NAME'], os.environ['PROCLER_PROJECT_ROOT'], os.environ.get('GREETING'), flush=True); time.sleep(600)"]
    env: {{GREETING: hi}}
  zombie_parent:
    args: [{PY}, -c, "import subprocess,sys,time; subprocess.Popen([sys.executable,'-c','pass']); time.sleep(600)"]
"""

STATUS_KEYS = [
    "name",
    "status",
    "context",
    "pid",
    "shell",
    "started_at",
    "uptime_seconds",
    "run",
    "restarts",
    "exit_code",
    "last_exit",
    "desired",
    "dependency_down",
    "dependency_path",
    "why",
    "source",
    "tags",
    "namespaces",
    "ports",
    "replica_of",
    "memory_rss_bytes",
    "cpu_percent",
    "linux_state",
    "docker",
    "podman",
]


def test_start_is_idempotent_and_status_has_every_field(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(SLEEPER)
    first = p.ok("start", "api")
    assert first["status"] == "running"
    assert first["already_running"] is False
    again = p.ok("start", "api")
    assert again["already_running"] is True
    assert again["pid"] == first["pid"]
    status = p.ok("status", "api")
    assert list(status) == STATUS_KEYS
    assert status["run"] == 1
    assert status["desired"] == "running"
    assert status["source"] == "config"
    assert status["linux_state"] == {
        "state_code": "S",
        "state_name": "sleeping",
        "is_killable": True,
    }
    assert status["memory_rss_bytes"] > 0
    stopped = p.ok("stop", "api")
    assert stopped["status"] == "stopped"
    assert stopped["already_stopped"] is False
    assert p.ok("stop", "api")["already_stopped"] is True
    assert not alive(first["pid"])


def test_unknown_process_suggests_the_closest(make_project: Callable[[str], Project]) -> None:
    p = make_project(SLEEPER)
    code, env = p.run("start", "apj")
    assert code == 2
    assert env["error_code"] == "PROCESS_NOT_FOUND"
    assert env["suggestion"].startswith("did you mean api?")


def test_instant_failure_is_reported_failed_with_stderr(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(SLEEPER)
    code, env = p.run("start", "missing")
    assert code == 1
    assert env["error_code"] == "START_FAILED"
    assert env["data"]["status"] == "failed"
    assert env["data"]["exit_code"] == 127
    assert env["data"]["stderr"] == ["/bin/sh: 1: exec: no-such-program-xyz: not found"]


def test_a_command_without_shell_syntax_is_run_without_a_shell(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(SLEEPER)
    code, env = p.run("start", "missing_direct")
    assert code == 1
    assert env["error_code"] == "START_FAILED"
    assert env["error"] == (
        "missing_direct: cannot start: No such file or directory: no-such-program-xyz"
    )


def test_stop_kills_the_whole_tree(make_project: Callable[[str], Project]) -> None:
    p = make_project(SLEEPER)
    p.ok("start", "tree")
    assert wait_for(lambda: len(p.marked_pids()) == 4)  # sh, python, child, grandchild
    p.ok("stop", "tree")
    assert p.marked_pids() == []


def test_stop_escalates_to_sigkill(make_project: Callable[[str], Project]) -> None:
    p = make_project(SLEEPER)
    pid = p.ok("start", "stubborn")["pid"]
    stopped = p.ok("stop", "stubborn")
    assert stopped["last_exit"]["signal"] == signal.SIGKILL
    assert not alive(pid)


def test_crash_loop_backs_off_then_fails_with_exact_counts(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(SLEEPER)
    p.ok("start", "crasher")
    code, env = p.run("wait", "crasher", "--for", "failed", "--timeout", "20s")
    assert code == 0, env
    data = env["data"]
    assert data["status"] == "failed"
    assert data["restarts"] == 2
    assert data["run"] == 3
    assert data["exit_code"] == 3
    assert data["last_exit"]["reason"] == "exit code 3; restart limit reached (2)"


def test_daemonizing_process_exits_and_leaves_nothing(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(SLEEPER)
    p.ok("start", "daemonizer")
    code, env = p.run("wait", "daemonizer", "--for", "exited", "--timeout", "10s")
    assert code == 0, env
    assert env["data"]["last_exit"]["reason"] == (
        "exit code 0; killed 1 process(es) it left running (daemonized? run it in the foreground)"
    )
    assert wait_for(lambda: p.marked_pids() == [])


def test_environment_reaches_the_process(make_project: Callable[[str], Project]) -> None:
    p = make_project(SLEEPER)
    pid = p.ok("start", "envdump")["pid"]
    environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    assert b"PROCLER_PROCESS_NAME=envdump" in environ
    assert f"PROCLER_PROJECT_ROOT={p.root}".encode() in environ
    assert b"GREETING=hi" in environ


def test_zombie_child_is_visible_and_stop_leaves_nothing(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(SLEEPER)
    pid = p.ok("start", "zombie_parent")["pid"]

    def children() -> list[int]:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]

    assert wait_for(lambda: len(children()) == 1)
    zombie = children()[0]
    assert wait_for(
        lambda: Path(f"/proc/{zombie}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    )
    p.ok("stop", "zombie_parent")
    assert not Path(f"/proc/{zombie}").exists()
    assert not alive(pid)


def test_port_in_use_names_the_holder(make_project: Callable[[str], Project]) -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        p = make_project(
            f"version: 1\nprocesses:\n  web:\n    args: [{PY}, -c, 'import time; time.sleep(60)']\n    ports: [{port}]\n"
        )
        code, env = p.run("start", "web")
    assert code == 1
    assert env["error_code"] == "PORT_IN_USE"
    assert env["data"]["holder"]["pid"] == os.getpid()
    assert env["data"]["holder"]["procler_process"] is None
    assert env["data"]["port"] == port


def test_eight_concurrent_starts_make_one_process(make_project: Callable[[str], Project]) -> None:
    p = make_project(SLEEPER)
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda _: p.run("start", "api"), range(8)))
    assert [code for code, _ in results] == [0] * 8
    pids = {env["data"]["pid"] for _, env in results}
    assert len(pids) == 1
    assert sorted(env["data"]["already_running"] for _, env in results) == [False] + [True] * 7
    assert p.marked_pids() == [pids.pop()]


def test_supervisor_kill_9_leaves_no_orphan_and_next_command_restores(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(SLEEPER)
    p.ok("start", "tree")
    assert wait_for(lambda: len(p.marked_pids()) == 4)
    before = set(p.marked_pids())
    sup = p.supervisor_pid()
    os.kill(sup, signal.SIGKILL)
    assert wait_for(lambda: not any(alive(pid) for pid in before), timeout=5)
    assert (p.root / ".procler" / "state" / "supervisor.sock").exists()  # stale socket left
    status = p.ok("status", "tree")
    assert p.supervisor_pid() != sup
    assert wait_for(lambda: len(p.marked_pids()) == 4)
    assert status["status"] == "running"
    assert status["run"] == 2
    assert status["restarts"] == 1
    assert status["last_exit"]["reason"] == "supervisor_lost"


def test_unwritable_state_dir_is_a_clear_error(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / ".procler").mkdir(parents=True)
    (root / ".procler" / "config.yaml").write_text("version: 1\nprocesses: {}\n")
    (root / ".procler" / "state").write_text("not a directory")
    proc = subprocess.run([PROCLER, "status"], cwd=root, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2
    assert '"error_code":"STATE_DIR_UNWRITABLE"' in proc.stdout


def test_socket_is_private(make_project: Callable[[str], Project]) -> None:
    p = make_project(SLEEPER)
    p.ok("start", "api")
    mode = (p.root / ".procler" / "state" / "supervisor.sock").stat().st_mode
    assert stat.S_IMODE(mode) == 0o600
    assert stat.S_ISSOCK(mode)


def test_daemon_stop_stops_processes_and_status_reports_not_running(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(SLEEPER)
    pid = p.ok("start", "api")["pid"]
    stopped = p.ok("daemon", "stop")
    assert stopped["stopped_processes"] == ["api"]
    assert not alive(pid)
    assert wait_for(lambda: p.ok("daemon", "status") == {"running": False})
    assert wait_for(lambda: supervisors_of(p.root) == [])  # gone, not only silent


def test_daemon_restart_brings_back_running_processes_and_logs_it(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(SLEEPER)
    first = p.ok("start", "api")
    old = p.supervisor_pid()
    about = p.ok("daemon", "restart")
    assert about["running"] is True
    assert about["pid"] != old
    status = p.ok("status", "api")
    assert status["status"] == "running"
    assert status["run"] == 2
    assert status["pid"] != first["pid"]
    lines = p.ok("daemon", "logs", "--tail", "400")["lines"]
    assert any("api: running -> stopping (supervisor shutting down)" in line for line in lines)
    assert any(
        "api: stopped -> starting (restored after supervisor restart)" in line for line in lines
    )


def test_run_defines_and_starts_idempotently(make_project: Callable[[str], Project]) -> None:
    p = make_project(SLEEPER)
    argv = ["run", "adhoc", "--", PY, "-c", "import time; time.sleep(600)"]
    first = p.ok(*argv)
    assert first["status"] == "running"
    assert first["source"] == "runtime"
    again = p.ok(*argv)
    assert again["already_running"] is True
    assert again["pid"] == first["pid"]
    code, env = p.run("run", "adhoc", "--", PY, "-c", "pass")
    assert code == 2
    assert env["error_code"] == "CONFLICT"
    p.ok("remove", "adhoc")
    assert wait_for(lambda: not alive(first["pid"]))


def test_a_failed_run_keeps_no_definition_unless_kept(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(SLEEPER)

    def runtime() -> list[str]:
        return [r["name"] for r in p.ok("list")["processes"] if r["source"] == "runtime"]

    code, env = p.run("run", "adhoc", "--", "no-such-program-xyz")
    assert (code, env["error_code"]) == (1, "START_FAILED")
    assert runtime() == []
    fixed = p.ok("run", "adhoc", "--", PY, "-c", "import time; time.sleep(600)")
    assert (fixed["status"], fixed["run"]) == ("running", 1)
    code, env = p.run("run", "adhoc", "--force", "--", "no-such-program-xyz")
    assert (code, env["error_code"]) == (1, "START_FAILED")
    assert p.ok("list")["processes"][-1]["command"] == shlex.join(
        [PY, "-c", "import time; time.sleep(600)"]
    )  # the definition it replaced is back
    code, env = p.run("run", "kept", "--keep", "--", "no-such-program-xyz")
    assert (code, env["error_code"]) == (1, "START_FAILED")
    assert runtime() == ["adhoc", "kept"]
