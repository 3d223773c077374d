"""The supervisor's own commands: reload, daemon status/stop/restart/logs, serve and
dashboard: their declarations (daemon logs reads the supervisor's log file without one)."""

from agentcli.commands import Arg, Command
from procler.declarations.processes import FORWARD, FROM_DISK, IF_RUNNING, SUPERVISED
from procler.errors import (
    ConfigNotFound,
    PermissionDenied,
    PortInUse,
    StartFailed,
    StateDirUnwritable,
    SupervisorUnavailable,
)

HANDLERS = "procler.cli.daemon:"
RESTART = HANDLERS + "restart"  # also waits for the next supervisor
STATUS = HANDLERS + "status"  # asks a supervisor briefly, never starts one
STOP = HANDLERS + "stop"  # also waits until the supervisor's process has ended
SERVE = HANDLERS + "serve"  # warns on stderr, then forwards

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
        "stopped": {
            **NAMES,
            "description": "the removed processes, and the running ones whose definition now "
            "has autostart: false (which `up` leaves stopped)",
        },
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
        "stack is up) and arm their schedules, stop removed ones and, while the stack is up, "
        "running ones now autostart: false; answers the diff with "
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
        errors=(ConfigNotFound, PermissionDenied, StateDirUnwritable, SupervisorUnavailable),
        output={"type": "object", "properties": {"running": {"type": "boolean"}}},
    ),
    Command(
        "daemon stop",
        "stop every process cleanly, then the supervisor; the session ends (the next `up` "
        "runs the one-shots again)",
        STOP,
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
        errors=(ConfigNotFound, PermissionDenied),
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
