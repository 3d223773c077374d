"""The handlers of `daemon logs` (the tail of the supervisor's log file, read without
a supervisor), `daemon status`, `daemon stop`, `daemon restart` and `serve` (declared in
procler.declarations.daemon)."""

import os

from agentcli.commands import Command, Raw
from procler import project

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

PEEK_WAIT = 1.0  # `daemon status` asks this long, then answers from what it sees


def serve(values: "dict[str, Any]", command: "Command") -> "Any":
    """`serve`: the supervisor opens the listener; a host others can reach warns here."""
    import sys

    from agentcli.http_guard import is_loopback
    from procler.cli.client import forward

    host = values.get("host") or ""
    if values.get("allow_remote") and not values.get("stop") and not is_loopback(host):
        print(
            f"procler serve: warning: {host} may be reachable from other machines; only the "
            "token in the file this answer names protects the API",
            file=sys.stderr,
        )
    return forward(values, command)


def show(values: "dict[str, Any]", command: "Command") -> "Any":
    from collections import deque

    config_path = project.find_config(os.getcwd(), values.get("config"))
    path = os.path.join(project.state_dir(project.project_root(config_path)), "supervisor.log")
    lines: deque[str] = deque(maxlen=max(0, values["tail"]))
    for name in (f"{path}.2", f"{path}.1", path):  # the rotated ones first (log_lines.FILES)
        try:
            with open(name, encoding="utf-8", errors="replace") as fh:
                lines.extend(line.rstrip("\n") for line in fh)
        except FileNotFoundError:
            continue
    return {"path": path, "lines": list(lines)}


def stop(values: "dict[str, Any]", command: "Command") -> "Any":
    """`daemon stop`: answered once the supervisor's process has ended (bounded), not
    when it has stopped the processes: its answer says `running: false`, and a `daemon
    status` or `up` right after must not meet the supervisor still closing its logs."""
    from procler.cli.client import config_path_of, forward_if_running, wait_exited

    pid = project.supervisor_pid(project.project_root(config_path_of(values)))
    answer = forward_if_running(values, command)
    if pid is not None and pid.isdigit() and isinstance(answer, Raw) and answer.exit_code == 0:
        wait_exited(int(pid))
    return answer


def restart(values: "dict[str, Any]", command: "Command") -> "Any":
    """`daemon restart`: the old supervisor stops; answer with the new one's status."""
    from procler.cli.client import call, config_path_of, wait_gone
    from procler.wire import NotRunning

    config_path = config_path_of(values)
    # Checked before the old supervisor stops: a new one could not start, and nothing would
    # bring the processes back.
    project.check_state_writable(project.project_root(config_path))
    try:
        code, payload = call(config_path, command.name, values, autostart=False)
        if code != 0:
            return Raw(payload.decode("utf-8"), code)
        wait_gone(project.socket_path(project.project_root(config_path)))
    except NotRunning:
        pass  # no supervisor: just start one
    code, payload = call(config_path, "daemon status", {}, autostart=True)
    return Raw(payload.decode("utf-8"), code)


def status(values: "dict[str, Any]", command: "Command") -> "Any":
    """`daemon status`, never starting a supervisor nor waiting on a hung one: it asks
    for PEEK_WAIT, then says what it sees (pid, Linux process state)."""
    from procler.cli.client import config_path_of
    from procler.wire import EXIT_CODE, NotRunning, Unanswered, command_path, request

    root = project.project_root(config_path_of(values))
    sock_path = project.socket_path(root)
    try:
        _status, headers, payload = request(
            sock_path, "POST", command_path("daemon status"), b"{}", PEEK_WAIT
        )
    except Unanswered:
        from procler.contexts.procfs import linux_state, read_stat

        text = project.supervisor_pid(root)
        pid = int(text) if text and text.isdigit() else None
        return {
            "running": True,
            "responding": False,
            "pid": pid,
            "linux_state": linux_state(read_stat(pid) if pid else None),
            "project_root": root,
            "socket": sock_path,
        }
    except (NotRunning, OSError):
        return {"running": False}
    return Raw(payload.decode("utf-8"), int(headers.get(EXIT_CODE, "3")))
