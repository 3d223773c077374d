"""The supervisor's own commands: reload, daemon status/stop/restart, and daemon logs
(the tail of the supervisor's log file, read without a supervisor)."""

import os

from agentcli.commands import Arg, Command, Raw
from procler import project
from procler.cli.processes import FORWARD, SUPERVISED
from procler.errors import ConfigNotFound

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

HANDLERS = "procler.cli.daemon:"
RESTART = HANDLERS + "restart"  # also waits for the next supervisor

DAEMON_COMMANDS: "tuple[Command, ...]" = (
    Command(
        "reload",
        "make a running supervisor re-read the config and runtime definitions now",
        FORWARD,
        examples=("procler reload",),
        errors=SUPERVISED,
        output={"type": "object", "properties": {"processes": {"type": "array"}}},
    ),
    Command(
        "daemon status",
        "whether the project's supervisor runs, its pid, uptime and socket (never starts one)",
        FORWARD,
        read_only=True,
        examples=("procler daemon status",),
        errors=(ConfigNotFound,),
        output={"type": "object", "properties": {"running": {"type": "boolean"}}},
    ),
    Command(
        "daemon stop",
        "stop every process cleanly, then the supervisor",
        FORWARD,
        destructive=True,
        examples=("procler daemon stop",),
        errors=(ConfigNotFound,),
        output={"type": "object", "properties": {"stopped_processes": {"type": "array"}}},
    ),
    Command(
        "daemon restart",
        "restart the supervisor; processes that should run are brought back",
        RESTART,
        idempotent=False,
        examples=("procler daemon restart",),
        errors=(*SUPERVISED,),
        output={"type": "object"},
    ),
    Command(
        "daemon logs",
        "the supervisor's own log (not the processes' output)",
        HANDLERS + "show",
        read_only=True,
        args=(Arg("--tail", "number of lines", type="integer", default=100),),
        examples=("procler daemon logs --tail 20",),
        errors=(ConfigNotFound,),
        output={"type": "object", "properties": {"lines": {"type": "array"}}},
    ),
)


def show(values: "dict[str, Any]", command: "Command") -> "Any":
    from collections import deque

    config_path = project.find_config(os.getcwd(), values.get("config"))
    path = os.path.join(project.state_dir(project.project_root(config_path)), "supervisor.log")
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            lines = list(deque((line.rstrip("\n") for line in fh), maxlen=max(0, values["tail"])))
    except FileNotFoundError:
        lines = []
    return {"path": path, "lines": lines}


def restart(values: "dict[str, Any]", command: "Command") -> "Any":
    """`daemon restart`: the old supervisor stops; answer with the new one's status."""
    from procler.cli.client import call, wait_gone
    from procler.wire import NotRunning, reply_bound

    config_path = project.find_config(os.getcwd(), values.pop("config", None))
    timeout = reply_bound(values)
    try:
        code, payload = call(config_path, command.name, values, timeout)
        if code != 0:
            return Raw(payload.decode("utf-8"), code)
        wait_gone(project.socket_path(project.project_root(config_path)))
    except NotRunning:
        pass  # no supervisor: just start one
    code, payload = call(config_path, "daemon status", {}, timeout, autostart=True)
    return Raw(payload.decode("utf-8"), code)
