"""The CLI side of supervisor commands: send them over the socket, starting the supervisor if needed."""

import os
import sys
import time

from agentcli.commands import Raw
from agentcli.envelope import dumps
from procler import project
from procler.errors import StateDirUnwritable, SupervisorUnavailable
from procler.wire import EXIT_CODE, NotRunning, command_path, reply_bound, request

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agentcli.commands import Command

CONNECT_WAIT = 10.0  # bound on waiting for a freshly started supervisor
RELOAD_WAIT = 60.0  # a reload waits for removed processes to stop (their stop_timeout)
NO_AUTOSTART = frozenset({"daemon status", "daemon stop", "daemon restart", "reload"})


def spawn_supervisor(root: "str", config_path: "str") -> "None":
    """Start a detached supervisor for this project (its own session, no terminal)."""
    import subprocess
    import threading

    state = project.state_dir(root)
    try:
        os.makedirs(state, exist_ok=True)
        log = open(os.path.join(state, "supervisor.log"), "ab")  # noqa: SIM115 - handed to the child
    except OSError as exc:
        raise StateDirUnwritable(
            f"cannot write the state directory {state}: {exc.strerror}"
        ) from None
    # Our own PROCLER_* variables would mark the supervisor as one of a project's processes.
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROCLER_")}
    with log:
        child = subprocess.Popen(
            [sys.executable, "-m", "procler.supervisor_entry", root, config_path],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=log,
            start_new_session=True,
            close_fds=True,
            env=env,
            cwd=root,
        )
    # A long-lived caller (`procler mcp`) must reap the supervisor when it ends; the thread
    # costs nothing here (subprocess already imported threading) and dies with the CLI.
    threading.Thread(target=child.wait, name="reap-supervisor", daemon=True).start()


def wait_gone(sock_path: "str") -> "None":
    """Wait (bounded) until the supervisor on sock_path stops answering."""
    deadline = time.monotonic() + CONNECT_WAIT
    while time.monotonic() < deadline:
        try:
            request(sock_path, "POST", command_path("daemon status"), b"{}", 1.0)
        except (NotRunning, OSError):
            return
        time.sleep(0.05)


def call(
    config_path: "str",
    name: "str",
    values: "dict[str, Any]",
    timeout: "float",
    autostart: "bool | None" = None,
) -> "tuple[int, bytes]":
    """Send a command to the project's supervisor (starting it unless told not to)."""
    root = project.project_root(config_path)
    sock_path = project.socket_path(root)
    body = dumps({"values": values, "config": config_path}).encode()
    path = command_path(name)

    def attempt() -> "tuple[int, bytes]":
        try:
            _status, headers, payload = request(sock_path, "POST", path, body, timeout)
        except TimeoutError:
            raise project.hung_supervisor(
                root, f"the supervisor did not answer within {timeout:g}s"
            ) from None
        return int(headers.get(EXIT_CODE, "3")), payload

    try:
        return attempt()
    except NotRunning:
        if not (autostart if autostart is not None else name not in NO_AUTOSTART):
            raise
    deadline = time.monotonic() + CONNECT_WAIT
    next_spawn = 0.0
    while True:
        if time.monotonic() >= next_spawn:
            # Spawning again is harmless (the lock admits one) and covers a supervisor
            # that was still exiting and holding the lock when we first tried.
            spawn_supervisor(root, config_path)
            next_spawn = time.monotonic() + 1.0
        time.sleep(0.02)
        try:
            return attempt()
        except NotRunning:
            if time.monotonic() > deadline:
                raise SupervisorUnavailable(
                    f"the supervisor did not answer on {sock_path} within {CONNECT_WAIT:g}s"
                ) from None


def notify_reload(config_path: "str") -> "bool":
    """Tell a running supervisor that definitions changed; False when none runs."""
    try:
        call(config_path, "reload", {}, RELOAD_WAIT)
    except NotRunning:
        return False
    return True


def forward(values: "dict[str, Any]", command: "Command") -> "Any":
    """Handler of every supervisor command: forward it and pass the envelope through."""
    config_path = project.find_config(os.getcwd(), values.pop("config", None))
    timeout = reply_bound(values)
    try:
        code, payload = call(config_path, command.name, values, timeout)
    except NotRunning:
        if command.name == "daemon stop":
            return {"running": False, "stopped_processes": []}
        return {"running": False}  # daemon status and reload never start a supervisor
    return Raw(payload.decode("utf-8"), code)
