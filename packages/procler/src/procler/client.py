"""The CLI side of Procler: HTTP/1.1 over the project's unix socket, starting the supervisor if needed.

This runs on every command, so it uses the C-level `_socket` module (the `socket`
module imports `enum`, `selectors` and more) and hand-writes the tiny HTTP it needs.
"""

import _socket
import os
import sys
import time

from agentcli.commands import Command, Raw
from agentcli.envelope import dumps
from procler import project
from procler.errors import StateDirUnwritable, SupervisorUnavailable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

CONNECT_WAIT = 10.0  # bound on waiting for a freshly started supervisor
REPLY_MARGIN = 30.0  # added to a command's own --timeout for the read timeout
NO_AUTOSTART = frozenset({"daemon status", "daemon stop", "daemon restart", "reload"})


class NotRunning(Exception):
    """No supervisor answers on the socket (absent or stale)."""


def request(
    sock_path: "str", method: "str", path: "str", body: "bytes", timeout: "float"
) -> "tuple[int, dict[str, str], bytes]":
    """One HTTP request; returns (status, headers, body). Raises NotRunning if nobody listens."""
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        try:
            sock.connect(sock_path)
        except (FileNotFoundError, ConnectionRefusedError, NotADirectoryError) as exc:
            raise NotRunning(str(exc)) from None
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: procler\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        )
        chunks = []
        try:
            sock.sendall(head.encode() + body)
            while True:
                data = sock.recv(65536)
                if not data:
                    break
                chunks.append(data)
        except (ConnectionResetError, BrokenPipeError) as exc:
            raise NotRunning(f"the supervisor closed the connection: {exc}") from None
    finally:
        sock.close()
    if not chunks:
        raise NotRunning("the supervisor closed the connection without answering")
    raw = b"".join(chunks)
    header_blob, _, payload = raw.partition(b"\r\n\r\n")
    lines = header_blob.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        key, _, value = line.partition(":")
        headers[key.strip().lower()] = value.strip()
    if headers.get("transfer-encoding") == "chunked":
        payload = _unchunk(payload)
    return status, headers, payload


def _unchunk(data: "bytes") -> "bytes":
    out = []
    while data:
        size_line, _, rest = data.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out.append(rest[:size])
        data = rest[size + 2 :]
    return b"".join(out)


def spawn_supervisor(root: "str", config_path: "str") -> "None":
    """Start a detached supervisor for this project (its own session, no terminal)."""
    import subprocess

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
        subprocess.Popen(
            [sys.executable, "-m", "procler.supervisor.daemon", root, config_path],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=log,
            start_new_session=True,
            close_fds=True,
            env=env,
            cwd=root,
        )


def wait_gone(sock_path: "str") -> "None":
    """Wait (bounded) until the supervisor on sock_path stops answering."""
    deadline = time.monotonic() + CONNECT_WAIT
    while time.monotonic() < deadline:
        try:
            request(sock_path, "POST", "/v1/commands/daemon/status", b"{}", 1.0)
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
    path = "/v1/commands/" + name.replace(" ", "/")
    try:
        _status, headers, payload = request(sock_path, "POST", path, body, timeout)
        return int(headers.get("x-exit-code", "3")), payload
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
            _status, headers, payload = request(sock_path, "POST", path, body, timeout)
            return int(headers.get("x-exit-code", "3")), payload
        except NotRunning:
            if time.monotonic() > deadline:
                raise SupervisorUnavailable(
                    f"the supervisor did not answer on {sock_path} within {CONNECT_WAIT:g}s"
                ) from None


def notify_reload(config_path: "str") -> "bool":
    """Tell a running supervisor that definitions changed; False when none runs."""
    try:
        call(config_path, "reload", {}, CONNECT_WAIT)
    except NotRunning:
        return False
    return True


def forward(values: "dict[str, Any]", command: "Command") -> "Any":
    """Handler of every supervisor command: forward it and pass the envelope through."""
    config_path = project.find_config(os.getcwd(), values.pop("config", None))
    wait = values.get("timeout")
    timeout = (wait if isinstance(wait, float) else 30.0) + REPLY_MARGIN
    try:
        try:
            code, payload = call(config_path, command.name, values, timeout)
        except NotRunning:
            if command.name == "daemon stop":
                return {"running": False, "stopped_processes": []}
            if command.name in ("daemon status", "reload"):
                return {"running": False}
            code = 0  # daemon restart with no supervisor: just start one
        if command.name == "daemon restart" and code == 0:
            wait_gone(project.socket_path(project.project_root(config_path)))
            code, payload = call(config_path, "daemon status", {}, timeout, autostart=True)
    except TimeoutError:
        raise SupervisorUnavailable(f"the supervisor did not answer within {timeout:g}s") from None
    return Raw(payload.decode("utf-8"), code)
