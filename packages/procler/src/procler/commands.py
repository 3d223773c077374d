"""Procler's command declarations: the single source for the CLI, capabilities and the API.

Commands whose handler is FORWARD (or RESTART_DAEMON, which also waits for the next
supervisor) run in the supervisor; `Handlers.table()` covers exactly them (tested). A
running supervisor answers FORWARD commands straight from argv (see procler.entry).
"""

from agentcli.commands import App, Arg, Command
from procler import __version__
from procler.config_commands import CONFIG_COMMANDS, DOCKER_ARGS
from procler.errors import (
    ConfigInvalid,
    ConfigNotFound,
    Conflict,
    DependencyFailed,
    GroupNotFound,
    PortInUse,
    ProcessNotFound,
    StartFailed,
    StateDirUnwritable,
    SupervisorUnavailable,
    Timeout,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NoReturn

FORWARD = "procler.client:forward"
RESTART_DAEMON = "procler.client:restart_daemon"
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
WAIT_FOR = ("running", "stopped", "exited", "failed", "healthy", "unhealthy")
SUPERVISED = (ConfigNotFound, ConfigInvalid, StateDirUnwritable, SupervisorUnavailable)

PROCESS = {
    "type": "object",
    "description": "one process: name, status, context, pid (the program's; shell: true when "
    "a shell runs it), started_at, uptime_seconds, run, restarts, exit_code, last_exit, desired, "
    "dependency_down and why (a dependency died or was stopped), source, memory_rss_bytes, "
    "cpu_percent, linux_state (local) or docker (docker), health (with a healthcheck)",
}
PROCESSES = {"type": "object", "properties": {"processes": {"type": "array", "items": PROCESS}}}

START_ARGS = (
    Arg("--no-deps", "start only this process, not what it depends on", type="boolean"),
    Arg(
        "--timeout",
        "give up waiting for dependencies and the health check after this long",
        type="duration",
        default="60s",
    ),
)
GROUP = Arg("name", "group name (see `procler group list`)", required=True)
GROUP_ERRORS = (*SUPERVISED, GroupNotFound)

PROCESS_COMMANDS: "tuple[Command, ...]" = (
    Command(
        "start",
        "start a process (or --all) after what it depends on; a running one is left as it is",
        FORWARD,
        args=(NAME, ALL, *START_ARGS),
        examples=("procler start api", "procler start worker --no-deps", "procler start --all"),
        errors=(*SUPERVISED, ProcessNotFound, PortInUse, StartFailed, DependencyFailed),
        output={"oneOf": [PROCESS, PROCESSES], "description": "adds already_running, dependencies"},
    ),
    Command(
        "stop",
        "stop a process (or --all): stop_signal to its group, SIGKILL after stop_timeout",
        FORWARD,
        args=(
            NAME,
            ALL,
            Arg("--with-dependents", "stop what depends on it first", type="boolean"),
        ),
        examples=("procler stop api", "procler stop db --with-dependents", "procler stop --all"),
        errors=(*SUPERVISED, ProcessNotFound),
        output={"oneOf": [PROCESS, PROCESSES], "description": "adds already_stopped"},
    ),
    Command(
        "restart",
        "stop (if running) and start a process (or --all): always a new run; answers like start",
        FORWARD,
        args=(
            NAME,
            ALL,
            Arg(
                "--timeout",
                "give up waiting for the health check after this long",
                type="duration",
                default="60s",
            ),
        ),
        idempotent=False,
        examples=("procler restart api",),
        errors=(*SUPERVISED, ProcessNotFound, PortInUse, StartFailed),
        output={"oneOf": [PROCESS, PROCESSES]},
    ),
    Command(
        "run",
        "define a runtime process and start it in one call (same NAME and CMD: no-op); "
        "a failed start keeps no definition unless --keep",
        "procler.run_command:run",
        args=(
            Arg("name", "process name", required=True),
            Arg("--cwd", "working directory (default: the project root)", type="path"),
            Arg("--env", "environment variable (repeatable)", type="key_value", multiple=True),
            Arg("--force", "replace a different runtime definition of NAME", type="boolean"),
            Arg("--keep", "keep the definition even if the start fails", type="boolean"),
            *DOCKER_ARGS,
            Arg("cmd", "the command and its arguments, after --", type="remainder"),
        ),
        examples=(
            "procler run web -- python -m http.server 8000 --bind 127.0.0.1",
            "procler run cache --image redis:7 -- redis-server --port 6390",
        ),
        errors=(*SUPERVISED, Conflict, PortInUse, StartFailed),
        output=PROCESS,
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
        "block until a process (or every member of a group) reaches a status; exit 1 on TIMEOUT",
        FORWARD,
        args=(
            Arg("name", "process name (or use --group)"),
            Arg("--group", "wait for every member of this group"),
            Arg("--for", "the status to wait for", choices=tuple(WAIT_FOR), default="running"),
            TIMEOUT,
        ),
        examples=(
            "procler wait api --for healthy --timeout 10s",
            "procler wait --group backend --for healthy --timeout 60s",
        ),
        errors=(*GROUP_ERRORS, ProcessNotFound, Timeout),
        output={"oneOf": [PROCESS, PROCESSES], "description": "adds condition, not_met"},
    ),
    Command(
        "up",
        "start every process in dependency order (parallel where independent); a one-shot "
        "that completed in this supervisor's life with the same definition is not run again",
        FORWARD,
        args=(
            *START_ARGS[1:],
            Arg("--rerun", "run completed one-shots again", type="boolean"),
        ),
        examples=("procler up", "procler up --rerun"),
        errors=(*SUPERVISED, PortInUse, StartFailed, DependencyFailed),
        output={
            **PROCESSES,
            "description": "each process adds already_running or already_completed",
        },
    ),
    Command(
        "down",
        "stop every process, dependents first",
        FORWARD,
        examples=("procler down",),
        errors=SUPERVISED,
        output=PROCESSES,
    ),
    Command(
        "group start",
        "start a group's members and what they depend on, in dependency order",
        FORWARD,
        args=(GROUP, START_ARGS[1]),
        examples=("procler group start backend",),
        errors=(*GROUP_ERRORS, PortInUse, StartFailed, DependencyFailed),
        output=PROCESSES,
    ),
    Command(
        "group stop",
        "stop a group's members in reverse dependency order",
        FORWARD,
        args=(GROUP,),
        examples=("procler group stop backend",),
        errors=GROUP_ERRORS,
        output=PROCESSES,
    ),
    Command(
        "group status",
        "status of every member of a group",
        FORWARD,
        args=(GROUP,),
        examples=("procler group status backend",),
        errors=GROUP_ERRORS,
        output=PROCESSES,
    ),
    Command(
        "group list",
        "the groups defined in the config, with their members",
        FORWARD,
        examples=("procler group list",),
        errors=SUPERVISED,
        output={"type": "object", "properties": {"groups": {"type": "array"}}},
    ),
    Command(
        "logs",
        "a process's output lines (stdout and stderr, every run) with filters; --follow streams NDJSON",
        "procler.logs_command:show",
        args=(
            Arg("name", "process name (or use --all / --group)"),
            Arg("--all", "every process, interleaved by time", type="boolean"),
            Arg("--group", "every member of this group, interleaved by time"),
            Arg("--tail", "at most this many lines (the newest)", type="integer", default=100),
            Arg("--since", "only lines at or after this time (5m, 1h30m, or ISO-8601)"),
            Arg("--until", "only lines at or before this time (5m, 1h30m, or ISO-8601)"),
            Arg("--stream", "only this stream", choices=("stdout", "stderr")),
            Arg("--grep", "only lines matching this regular expression"),
            Arg(
                "--run",
                "which runs: current, previous, last-failed (the newest crashed run), N or all",
                default="current",
            ),
            Arg(
                "--follow",
                "keep printing new lines as NDJSON until --timeout or Ctrl-C",
                type="boolean",
            ),
            Arg("--timeout", "with --follow: stop after this long", type="duration", default="30s"),
        ),
        examples=(
            "procler logs api --tail 50",
            "procler logs api --stream stderr --since 5m --grep ERROR",
            "procler logs api --run last-failed",
            "procler logs --all --follow --timeout 10s",
        ),
        errors=(ConfigNotFound, ConfigInvalid, ProcessNotFound, GroupNotFound),
        output={
            "type": "object",
            "properties": {
                "lines": {"type": "array", "items": {"type": "object"}},
                "truncated": {"type": "boolean"},
            },
            "description": "each line: ts, stream, run, text (+ process with --all/--group); "
            "--follow prints one line object per output line instead",
        },
    ),
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
        RESTART_DAEMON,
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


def main() -> "NoReturn":
    """The full CLI: parse and render only (see agentcli.main.run); procler.entry comes first."""
    from agentcli.main import main as run_main

    run_main(APP)
