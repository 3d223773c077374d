"""The supervisor's own commands: reload, daemon status/stop/restart, and daemon logs
(the tail of the supervisor's log file, read without a supervisor)."""

import os

from agentcli.commands import Arg, Command, Raw
from procler import project
from procler.cli.processes import FORWARD, FROM_DISK, IF_RUNNING, SUPERVISED
from procler.errors import (
    ConfigNotFound,
    PortInUse,
    StartFailed,
    StateDirUnwritable,
    SupervisorUnavailable,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

HANDLERS = "procler.cli.daemon:"
RESTART = HANDLERS + "restart"  # also waits for the next supervisor
STATUS = HANDLERS + "status"  # asks a supervisor briefly, never starts one
SERVE = HANDLERS + "serve"  # warns on stderr, then forwards
PEEK_WAIT = 1.0  # `daemon status` asks this long, then answers from what it sees

NAMES = {"type": "array", "items": {"type": "string"}}
RELOAD_OUTPUT = {
    "type": "object",
    "description": "the diff against the running config (running: false without a supervisor)",
    "properties": {
        "added": NAMES,
        "changed": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "fields": NAMES},
            },
        },
        "removed": NAMES,
        "unchanged": NAMES,
        "restarted": NAMES,
        "started": NAMES,
        "armed": {**NAMES, "description": "scheduled processes whose schedule it armed"},
        "stopped": NAMES,
        "failed": {"type": "array", "description": "name and error of each that did not start"},
        "dry_run": {"type": "boolean"},
        "processes": NAMES,
    },
}

DAEMON_COMMANDS: "tuple[Command, ...]" = (
    Command(
        "reload",
        "apply the changed config now, leaving every process where `up` of the new config "
        "would: restart only the processes whose definition changed (in dependency order), "
        "start the added ones that should run (asked to, taking a running one's place, or the "
        "stack is up) and arm their schedules, stop removed ones; answers the diff with "
        "started, armed and stopped. A broken config is refused whole and nothing changes",
        IF_RUNNING,
        args=(Arg("--dry-run", "answer the diff without applying it", type="boolean"),),
        examples=("procler reload", "procler reload --dry-run"),
        errors=(*SUPERVISED, *FROM_DISK, StartFailed),
        output=RELOAD_OUTPUT,
    ),
    Command(
        "daemon status",
        "whether the project's supervisor runs, its pid, uptime and socket (never starts one)",
        STATUS,
        read_only=True,
        examples=("procler daemon status",),
        errors=(ConfigNotFound, StateDirUnwritable, SupervisorUnavailable),
        output={"type": "object", "properties": {"running": {"type": "boolean"}}},
    ),
    Command(
        "daemon stop",
        "stop every process cleanly, then the supervisor; the session ends (the next `up` "
        "runs the one-shots again)",
        IF_RUNNING,
        destructive=True,
        examples=("procler daemon stop",),
        errors=(*SUPERVISED, *FROM_DISK),
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
    Command(
        "serve",
        "make the supervisor listen on TCP too (REST, OpenAPI, --mcp): bearer token, Host and "
        "Origin checks; it listens, across daemon restarts, until `serve --stop` or `daemon stop`",
        SERVE,
        args=(
            Arg("--host", "address to listen on", default="127.0.0.1"),
            Arg("--port", "port to listen on (0: any free port)", type="integer", default=7765),
            Arg("--read-only", "refuse every command that changes something", type="boolean"),
            Arg("--allow-remote", "allow a host other than loopback (warns)", type="boolean"),
            Arg(
                "--allow-host",
                "also accept this Host header (a name behind a tunnel or proxy; repeatable)",
                multiple=True,
            ),
            Arg("--mcp", "serve the MCP tools as Streamable HTTP at /mcp too", type="boolean"),
            Arg(
                "--dashboard",
                "serve the web dashboard at /dashboard/ too (get in with `procler dashboard`)",
                type="boolean",
            ),
            Arg("--stop", "close the listener", type="boolean"),
        ),
        examples=(
            "procler serve",
            "procler serve --port 7765 --read-only",
            "procler serve --mcp",
            "procler serve --stop",
        ),
        errors=(*SUPERVISED, PortInUse),
        output={
            "type": "object",
            "properties": {
                "listening": {"type": "boolean"},
                "url": {"type": "string"},
                "token_file": {"type": "string", "description": "the bearer token's file (0600)"},
                "token_allows": {
                    "type": "string",
                    "description": "what the token lets its holder do (read only, or all)",
                },
                "example": {
                    "type": "string",
                    "description": "a working request: curl with the token read from its file",
                },
                "openapi": {"type": "string", "description": "the OpenAPI 3.1 document's URL"},
                "read_only": {"type": "boolean"},
                "allowed_hosts": {"type": "array", "items": {"type": "string"}},
                "mcp": {"type": ["string", "null"]},
                "dashboard": {"type": ["string", "null"]},
                "already_listening": {"type": "boolean"},
            },
        },
    ),
    Command(
        "dashboard",
        "a one-time login URL for the web dashboard (for people; it works once, within a "
        "minute): the supervisor listens with the dashboard first if it does not yet",
        FORWARD,
        args=(
            Arg(
                "--port",
                "port to listen on when not listening yet (default 7765; 0: any free port)",
                type="integer",
            ),
        ),
        idempotent=False,  # each call makes a new login ticket
        examples=("procler dashboard", "procler dashboard --port 8800"),
        errors=(*SUPERVISED, PortInUse),
        output={
            "type": "object",
            "properties": {
                "url": {"type": "string", "description": "open it in a browser, once"},
                "expires_in_seconds": {"type": "number"},
                "dashboard": {"type": "string"},
            },
        },
    ),
)


def serve(values: "dict[str, Any]", command: "Command") -> "Any":
    """`serve`: the supervisor opens the listener; a host others can reach warns here."""
    import sys

    from procler.cli.client import forward
    from procler.wire import is_loopback

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
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            lines = list(deque((line.rstrip("\n") for line in fh), maxlen=max(0, values["tail"])))
    except FileNotFoundError:
        lines = []
    return {"path": path, "lines": lines}


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
