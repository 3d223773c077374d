"""The CLI side of supervisor commands: send them over the socket, starting the supervisor if needed."""

import os
import sys
import time

from agentcli.commands import Raw
from agentcli.envelope import dumps
from procler import project
from procler.errors import StateDirUnwritable, SupervisorUnavailable
from procler.wire import (
    EXIT_CODE,
    HEADER_WAIT,
    NotRunning,
    Unanswered,
    command_path,
    deadline,
    request,
    split_argv_reply,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    import subprocess
    from typing import Any

    from agentcli.commands import Command

CONNECT_WAIT = 10.0  # bound on waiting for a freshly started supervisor


def spawn_supervisor(root: "str", config_path: "str") -> "subprocess.Popen[bytes]":
    """Start a detached supervisor for this project (its own session, no terminal)."""
    import subprocess

    state = project.state_dir(root)
    project.check_state_writable(root)
    try:
        log_fd = project.open_private(
            os.path.join(state, "supervisor.log"), os.O_WRONLY | os.O_APPEND
        )
    except OSError as exc:
        raise StateDirUnwritable(
            f"cannot write the state directory {state}: {exc.strerror}"
        ) from None
    # Our own PROCLER_* variables would mark the supervisor as one of a project's processes.
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROCLER_")}
    with open(log_fd, "ab") as log:
        return subprocess.Popen(
            [sys.executable, "-m", "procler.supervisor_entry", root, config_path],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=log,
            start_new_session=True,
            close_fds=True,
            env=env,
            cwd=root,
        )


def last_log_line(root: "str") -> "str":
    """The supervisor log's last line (a crash's exception), or a pointer to the log."""
    path = os.path.join(project.state_dir(root), "supervisor.log")
    try:
        with open(path, "rb") as handle:
            handle.seek(max(0, os.fstat(handle.fileno()).st_size - 4096))
            lines = handle.read().decode("utf-8", "replace").strip().splitlines()
    except OSError:
        lines = []
    return lines[-1] if lines else f"see {path}"


def wait_gone(sock_path: "str") -> "None":
    """Wait (bounded) until the supervisor on sock_path stops answering."""
    deadline = time.monotonic() + CONNECT_WAIT
    while time.monotonic() < deadline:
        try:
            request(sock_path, "POST", command_path("daemon status"), b"{}", 1.0)
        except (NotRunning, OSError):
            return
        time.sleep(0.05)


def wait_exited(pid: "int") -> "None":
    """Wait (bounded) until process pid has ended: gone, or a zombie no one reaped yet."""
    from procler.contexts.procfs import read_stat

    deadline = time.monotonic() + CONNECT_WAIT
    while time.monotonic() < deadline:
        stat = read_stat(pid)
        if stat is None or stat.state == "Z":
            return
        time.sleep(0.02)


def call(
    config_path: "str", name: "str", values: "dict[str, Any]", *, autostart: "bool"
) -> "tuple[int, bytes]":
    """Send a command to the project's supervisor (with autostart, starting one if none
    runs); NotRunning when none runs and autostart is off."""
    root = project.project_root(config_path)
    sock_path = project.socket_path(root)
    body = dumps({"values": values, "config": config_path}).encode()
    path = command_path(name)

    def attempt() -> "tuple[int, bytes]":
        try:
            _status, headers, payload = request(
                sock_path, "POST", path, body, HEADER_WAIT, deadline()
            )
        except Unanswered as exc:
            raise project.hung_supervisor(root, HEADER_WAIT, exc.taken) from None
        if EXIT_CODE in headers:
            return int(headers[EXIT_CODE]), payload
        code, text = split_argv_reply(payload)  # an answer whose headers came first
        return code, text.encode()

    try:
        return attempt()
    except NotRunning:
        if not autostart:
            raise
    from procler.config.last_valid import require_valid

    require_valid(config_path)  # a supervisor cannot start on a broken config
    deadline_at = time.monotonic() + CONNECT_WAIT
    next_spawn = 0.0
    spawned: list[subprocess.Popen[bytes]] = []
    while True:
        if time.monotonic() >= next_spawn:
            # Spawning again is harmless (the lock admits one) and covers a supervisor
            # that was still exiting and holding the lock when we first tried.
            spawned.append(spawn_supervisor(root, config_path))
            next_spawn = time.monotonic() + 1.0
        time.sleep(0.02)
        crashed = [p.returncode for p in spawned if p.poll()]  # losing the lock race exits 0
        if crashed:  # spawning again would crash again
            raise SupervisorUnavailable(
                f"the supervisor exited with code {crashed[0]} as it started: "
                f"{last_log_line(root)}",
                suggestion="read `procler daemon logs` for the whole traceback, fix the cause, "
                "then retry",
            )
        try:
            reply = attempt()
        except NotRunning:
            if time.monotonic() > deadline_at:
                raise SupervisorUnavailable(
                    f"the supervisor did not answer on {sock_path} within {CONNECT_WAIT:g}s: "
                    "the command was not carried out"
                ) from None
            continue
        import threading  # already loaded by subprocess

        for child in spawned:  # a long-lived caller (`procler mcp`) reaps them when they end
            threading.Thread(target=child.wait, name="reap-supervisor", daemon=True).start()
        return reply


def notify_reload(config_path: "str") -> "bool":
    """Tell a running supervisor that definitions changed; False when none runs."""
    try:
        call(config_path, "reload", {}, autostart=False)
    except NotRunning:
        return False
    return True


def config_path_of(values: "dict[str, Any]") -> "str":
    return project.find_config(os.getcwd(), values.pop("config", None))


def forward(values: "dict[str, Any]", command: "Command") -> "Any":
    """Handler of the commands that need a supervisor: forward, starting one if none runs."""
    code, payload = call(config_path_of(values), command.name, values, autostart=True)
    return Raw(payload.decode("utf-8"), code)


def forward_if_running(values: "dict[str, Any]", command: "Command") -> "Any":
    """Handler of the commands a supervisor answers when one runs; without one, they are
    answered from the state on disk (procler.cli.offline) and none is started, unless the
    disk cannot answer (a supervisor died with runs open: a new one sorts them out)."""
    config_path = config_path_of(values)
    give_up = time.monotonic() + CONNECT_WAIT
    while True:
        try:
            code, payload = call(config_path, command.name, values, autostart=False)
            return Raw(payload.decode("utf-8"), code)
        except NotRunning:
            pass
        from procler.cli import offline  # the disk answers: only now its imports

        try:
            result = offline.answer(command.name, config_path, values)
        except offline.LockBusy as busy:
            if time.monotonic() > give_up:  # its holder never started answering
                raise SupervisorUnavailable(
                    f"the supervisor lock {busy} is held, but no supervisor answered "
                    f"within {CONNECT_WAIT:g}s: the command was not carried out"
                ) from None
            time.sleep(0.02)  # a supervisor is starting: ask it again
            continue
        if result is not None:
            return result
        code, payload = call(config_path, command.name, values, autostart=True)
        return Raw(payload.decode("utf-8"), code)
