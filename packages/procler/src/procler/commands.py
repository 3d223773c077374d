"""Procler's command declarations: the single source for the CLI, capabilities and the API.

Commands whose handler is `procler.client:forward` run in the supervisor; the supervisor's
HANDLERS table must cover exactly them (tested).
"""

from __future__ import annotations

from agentcli.commands import App, Arg, Command
from procler import __version__
from procler.config.commands import CONFIG_COMMANDS
from procler.errors import (
    ConfigInvalid,
    ConfigNotFound,
    PortInUse,
    ProcessNotFound,
    StartFailed,
    StateDirUnwritable,
    SupervisorUnavailable,
    Timeout,
)

FORWARD = "procler.client:forward"
GLOBAL_ARGS = (
    Arg(
        "--config",
        "config file (default: .procler/config.yaml found walking up; or $PROCLER_CONFIG)",
        type="path",
    ),
)
NAME = Arg("name", "process name (see `procler list`)")
ALL = Arg("--all", "every process of the project", type="boolean")
TIMEOUT = Arg(
    "--timeout", "give up after this long (e.g. 500ms, 30s, 5m)", type="duration", default="30s"
)
SUPERVISED = (ConfigNotFound, ConfigInvalid, StateDirUnwritable, SupervisorUnavailable)

PROCESS = {
    "type": "object",
    "description": "one process: name, status, context, pid, started_at, uptime_seconds, run, "
    "restarts, exit_code, last_exit, desired, source, memory_rss_bytes, cpu_percent, "
    "linux_state (local) or docker (docker), health (with a healthcheck)",
}
PROCESSES = {"type": "object", "properties": {"processes": {"type": "array", "items": PROCESS}}}

PROCESS_COMMANDS: tuple[Command, ...] = (
    Command(
        "start",
        "start a process (or --all); an already running one is left as it is",
        FORWARD,
        args=(NAME, ALL),
        examples=("procler start api", "procler start --all"),
        errors=(*SUPERVISED, ProcessNotFound, PortInUse, StartFailed),
        output={"oneOf": [PROCESS, PROCESSES], "description": "adds already_running"},
    ),
    Command(
        "stop",
        "stop a process (or --all): stop_signal to its group, then SIGKILL after stop_timeout",
        FORWARD,
        args=(NAME, ALL),
        examples=("procler stop api", "procler stop --all"),
        errors=(*SUPERVISED, ProcessNotFound),
        output={"oneOf": [PROCESS, PROCESSES], "description": "adds already_stopped"},
    ),
    Command(
        "restart",
        "stop (if running) and start a process (or --all): always a new run",
        FORWARD,
        args=(NAME, ALL),
        idempotent=False,
        examples=("procler restart api",),
        errors=(*SUPERVISED, ProcessNotFound, PortInUse, StartFailed),
        output={"oneOf": [PROCESS, PROCESSES]},
    ),
    Command(
        "status",
        "status of one process, or of every process",
        FORWARD,
        args=(Arg("name", "process name; omit for all"),),
        examples=("procler status", "procler status api"),
        errors=(*SUPERVISED, ProcessNotFound),
        output={"oneOf": [PROCESS, PROCESSES]},
    ),
    Command(
        "wait",
        "block until a process reaches a status; exit 1 with TIMEOUT otherwise",
        FORWARD,
        args=(
            Arg("name", "process name", required=True),
            Arg(
                "--for",
                "the status to wait for",
                choices=("running", "stopped", "exited", "failed", "healthy", "unhealthy"),
                default="running",
            ),
            TIMEOUT,
        ),
        examples=("procler wait api --for running --timeout 10s",),
        errors=(*SUPERVISED, ProcessNotFound, Timeout),
        output=PROCESS,
    ),
    Command(
        "daemon status",
        "whether the project's supervisor runs, its pid, uptime and socket (never starts one)",
        FORWARD,
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
        FORWARD,
        idempotent=False,
        examples=("procler daemon restart",),
        errors=(*SUPERVISED,),
        output={"type": "object"},
    ),
    Command(
        "daemon logs",
        "the supervisor's own log (not the processes' output)",
        "procler.daemon_log:show",
        args=(Arg("--tail", "number of lines", type="integer", default=100),),
        examples=("procler daemon logs --tail 20",),
        errors=(ConfigNotFound,),
        output={"type": "object", "properties": {"lines": {"type": "array"}}},
    ),
)

COMMANDS = CONFIG_COMMANDS + PROCESS_COMMANDS

APP = App(
    name="procler",
    version=__version__,
    description="Supervise a project's development processes; every command answers JSON.",
    commands=COMMANDS,
    global_args=GLOBAL_ARGS,
)
