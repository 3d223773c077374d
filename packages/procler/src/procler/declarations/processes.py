"""The process commands: start, stop, restart, run, status, wait, up, down, ci, why,
exec and group ...: their declarations, and the handler names every family uses.

How a command runs is its handler: FORWARD runs it in the supervisor, starting one if
none runs; IF_RUNNING runs it in a running supervisor, or answers it from the state on
disk without starting one (procler.cli.offline). A running supervisor answers both
straight from argv (see procler.entry), and the supervisor's command table
(procler.supervisor.commands) covers exactly the commands sent to it (tested). `run`
defines a runtime process and starts it, from the CLI process (procler.cli.processes).
"""

from agentcli.commands import Arg, Column, Command, Table, TableView
from agentcli.errors import AgentError, FileTooLargeError, NotRegularFileError
from procler.contexts import registry
from procler.declarations.config import CONTAINER_ARGS, EXEC_WHERE, NOTES, STYLES
from procler.errors import (
    CommandFailed,
    ConditionImpossible,
    ConfigInvalid,
    ConfigNotFound,
    Conflict,
    DependencyFailed,
    GroupNotFound,
    NamespaceNotFound,
    PermissionDenied,
    PortInUse,
    ProcessNotFound,
    ProcessNotRunning,
    StartFailed,
    StateDirUnwritable,
    StdinClosed,
    SupervisorUnavailable,
    Timeout,
)

FORWARD = "procler.cli.client:forward"
IF_RUNNING = "procler.cli.client:forward_if_running"
# `up` forwards, and with its local options (--attach, --tui) follows the stack after.
UP = "procler.cli.up:up"
ANSWERED_FROM_ARGV = frozenset({FORWARD, IF_RUNNING, UP})
HANDLERS = "procler.cli.processes:"
NAME = Arg(
    "name",
    "process name (see `procler list`); a process with replicas: every instance, or name one",
)
NAMESPACES = Arg(
    "--namespace",
    "only the processes of these namespaces (comma-separated); up: also $PROCLER_NAMESPACES",
    short="-n",
)
ALL = Arg("--all", "every process of the project", type="boolean")
TIMEOUT = Arg(
    "--timeout", "give up after this long (e.g. 500ms, 30s, 5m)", type="duration", default="30s"
)
WAIT_FOR = ("running", "stopped", "exited", "failed", "healthy", "unhealthy")
# What starting a process can answer, in any context.
STARTING: tuple[type[AgentError], ...] = (PortInUse, StartFailed, *registry.errors())
# What a command reaching the runs of every context answers when one cannot be reached.
UNREACHABLE = registry.unavailable()
# Every supervisor command first takes up a changed config; the restarts it brings run in
# a task (procler.supervisor.reloader), so their errors reach only `reload`.
SUPERVISED = (
    ConfigNotFound,
    PermissionDenied,
    ConfigInvalid,
    StateDirUnwritable,
    SupervisorUnavailable,
)
# What the answers from disk (IF_RUNNING commands without a supervisor) may raise besides.
FROM_DISK = (ProcessNotFound, GroupNotFound, NamespaceNotFound)

CONTEXT_FIELDS = "; ".join(f"{k.status_field}: {k.status_about}" for k in registry.kinds())
PROCESS = {
    "type": "object",
    "description": "one process: name, status, context, pid (the program's; shell: true when "
    "a shell runs it), started_at, uptime_seconds, run, restarts, exit_code, last_exit, desired, "
    "dependency_down, dependency_path and why (a dependency died or was stopped, directly or "
    "further down the chain: the root cause, and the path to it; or why an autostart: false "
    "process does not run), source, tags, namespaces, "
    "ports (as the config lists them), "
    "replica_of (an instance of a process with replicas: that process), memory_rss_bytes, "
    f"cpu_percent, each context's own field: {CONTEXT_FIELDS} (pid, memory, CPU and "
    "linux_state from a /proc sample at most 1 s old, new at each transition), health (the readiness check's "
    "verdict, with a healthcheck), liveness (the liveness check's, with liveness:), "
    "log_ready (with a ready_log_line), stdin: true (with stdin: true: `send` writes to it), "
    "watch (with watch:: state armed|disarmed|suspended, "
    "triggers, last_trigger, suspended_by), previous_run (after the supervisor was killed: its "
    "run from the dead supervisor, still ending: pids, since, stop_signal, stop_timeout; no run "
    "starts before it ended); config_reloaded when this command took up a changed config",
}
PROCESSES = {"type": "object", "properties": {"processes": {"type": "array", "items": PROCESS}}}
# What a person reads at a glance, as `docker compose ps` and `pm2 ls` show it.
PROCESS_COLUMNS = (
    Column("name"),
    Column("status", styles=STYLES + "PROCESS"),
    Column("health", "health.status", styles=STYLES + "HEALTH"),
    Column("pid", kind="number"),
    Column("uptime", "uptime_seconds", kind="seconds"),
    Column("restarts", kind="number"),
    Column("cpu", "cpu_percent", kind="percent"),
    Column("memory", "memory_rss_bytes", kind="bytes"),
    Column("ports"),
)
PROCESS_TABLE = TableView(
    Table(PROCESS_COLUMNS, "processes|instances", empty="no processes"), notes=NOTES
)

START_ARGS = (
    Arg("--no-deps", "start only this process, not what it depends on", type="boolean"),
    Arg(
        "--timeout",
        "give up waiting for dependencies and the health check after this long",
        type="duration",
        default="60s",
    ),
)
# A one-shot that completed in this session (until `down` or `daemon stop`) with the same
# definition is not run again by start or up, as a dependency or named.
RERUN = Arg(
    "--rerun",
    "run again one-shots that completed in this session with the same definition",
    type="boolean",
)
# How a one-off command (exec, a snippet) can fail.
EXEC_ERRORS: tuple[type[AgentError], ...] = (
    CommandFailed,
    Timeout,
    StartFailed,
    *registry.errors(),
)
GROUP = Arg("name", "group name (see `procler group list`)", required=True)
GROUP_ERRORS = (*SUPERVISED, GroupNotFound, ProcessNotFound)

PROCESS_COMMANDS: "tuple[Command, ...]" = (
    Command(
        "start",
        "start a process (or --all) after what it depends on; a running one is left as it is, "
        "and so is everything else then; a one-shot that completed in this session (until "
        "`down` or `daemon stop`) with the same definition is not run again (--rerun)",
        FORWARD,
        args=(NAME, ALL, *START_ARGS, RERUN),
        examples=(
            "procler start api",
            "procler start worker --no-deps",
            "procler start --all",
            "procler start migrate --rerun",
        ),
        errors=(*SUPERVISED, *STARTING, ProcessNotFound, DependencyFailed, NamespaceNotFound),
        output={
            "anyOf": [PROCESS, PROCESSES],
            "description": "adds already_running, already_completed (a one-shot not run again), "
            "dependencies",
        },
    ),
    Command(
        "stop",
        "stop a process (or --all): stop_signal to its group, SIGKILL after stop_timeout; "
        "only what is named stops (dependents_running lists what still runs that needs it)",
        IF_RUNNING,
        destructive=True,
        args=(
            NAME,
            ALL,
            Arg("--with-dependents", "stop what depends on it first", type="boolean"),
            Arg(
                "--kill",
                "SIGKILL at once instead of stop_signal and stop_timeout (also cutting short a "
                "stop already waiting on the process); no dependency order",
                type="boolean",
            ),
        ),
        examples=(
            "procler stop api",
            "procler stop db --with-dependents",
            "procler stop --all",
            "procler stop --all --kill",
        ),
        errors=(*SUPERVISED, *FROM_DISK, *UNREACHABLE),
        output={
            "anyOf": [PROCESS, PROCESSES],
            "description": "adds already_stopped; for NAME, dependents_running: the processes "
            "still running that depend on it (directly or not), which go on without it",
        },
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
            Arg(
                "--clear-logs",
                "remove the process's stored output before the new run",
                type="boolean",
            ),
        ),
        idempotent=False,
        examples=("procler restart api", "procler restart api --clear-logs"),
        errors=(*SUPERVISED, *STARTING, ProcessNotFound, NamespaceNotFound),
        output={"anyOf": [PROCESS, PROCESSES]},
    ),
    Command(
        "run",
        "define a runtime process and start it in one call (same NAME and CMD: no-op); "
        "a failed start keeps no definition unless --keep",
        HANDLERS + "run",
        args=(
            Arg("name", "process name", required=True),
            Arg("--cwd", "working directory (default: the project root)", type="path"),
            Arg("--env", "environment variable (repeatable)", type="key_value", multiple=True),
            Arg("--force", "replace a different runtime definition of NAME", type="boolean"),
            Arg("--keep", "keep the definition even if the start fails", type="boolean"),
            *CONTAINER_ARGS,
            Arg("cmd", "the command and its arguments, after --", type="remainder"),
        ),
        examples=(
            "procler run web -- python -m http.server 8000 --bind 127.0.0.1",
            "procler run cache --image redis:7 -- redis-server --port 6390",
        ),
        errors=(*SUPERVISED, *STARTING, ProcessNotFound, DependencyFailed, Conflict),
        output=PROCESS,
    ),
    Command(
        "status",
        "status of one process, or of every process",
        IF_RUNNING,
        read_only=True,
        args=(
            Arg(
                "name",
                "process name; omit for all (a process with replicas: each instance and a roll-up)",
            ),
            Arg(
                "--tag", "only processes carrying this tag (repeatable: any of them)", multiple=True
            ),
            Arg("--namespace", "only the processes of these namespaces (comma-separated)"),
        ),
        examples=(
            "procler status",
            "procler status api",
            "procler status --tag backend",
            "procler status --namespace backend",
        ),
        errors=(*SUPERVISED, *FROM_DISK, NamespaceNotFound),
        output={"anyOf": [PROCESS, PROCESSES]},
        table=PROCESS_TABLE,
    ),
    Command(
        "wait",
        "block until a process (or every member of a group, or every process) reaches a "
        "status; exit 1 on TIMEOUT, or at once with CONDITION_IMPOSSIBLE when one cannot",
        FORWARD,
        read_only=True,
        args=(
            Arg("name", "process name (or use --group / --all)"),
            Arg(
                "--group",
                "wait for every member of this group (those `autostart: false` keeps at rest "
                "are left out and named in left_alone)",
            ),
            Arg(
                "--all",
                "wait for every process `up` would start or that was started (a finished "
                "one-shot counts as healthy; those `autostart: false` keeps at rest are left "
                "out and named in left_alone)",
                type="boolean",
            ),
            Arg("--for", "the status to wait for", choices=tuple(WAIT_FOR), default="running"),
            TIMEOUT,
        ),
        examples=(
            "procler wait api --for healthy --timeout 10s",
            "procler wait --group backend --for healthy --timeout 60s",
            "procler wait --all --for healthy",
        ),
        errors=(*GROUP_ERRORS, ProcessNotFound, Timeout, ConditionImpossible),
        output={
            "anyOf": [PROCESS, PROCESSES],
            "description": "adds condition, not_met; --group and --all add left_alone",
        },
    ),
    Command(
        "up",
        "start every process in dependency order (parallel where independent); a one-shot "
        "that completed in this session (until `down` or `daemon stop`) with the same "
        "definition is not run again; "
        "--wait: answer once every process is healthy (or running, without a check) or "
        "completed, exit 1 naming the one that is not",
        UP,
        args=(
            *START_ARGS[1:],
            NAMESPACES,
            RERUN,
            Arg(
                "--wait",
                "wait until the whole stack is ready (bounded by --timeout)",
                type="boolean",
            ),
            Arg(
                "--attach",
                "for a person: then stream every process's output, each line after its "
                "name, and [procler] lines for status changes, until Ctrl-C stops the stack "
                "(a second Ctrl-C kills it); exit 0 after a clean stop, else the code of the "
                "first process that failed",
                type="boolean",
                local=True,
            ),
            Arg(
                "--tui",
                "for a person: then open the TUI on the stack (quitting it leaves the "
                "processes running)",
                type="boolean",
                local=True,
            ),
        ),
        examples=(
            "procler up",
            "procler up --rerun",
            "procler up --wait --timeout 60s",
            "procler up -n backend,jobs",
            "procler up --attach",
            "procler up --tui",
        ),
        errors=(
            NamespaceNotFound,
            *SUPERVISED,
            *STARTING,
            ProcessNotFound,
            DependencyFailed,
            Timeout,
            ConditionImpossible,
            # --tui reads the TUI's key bindings file first
            NotRegularFileError,
            FileTooLargeError,
        ),
        output={
            **PROCESSES,
            "description": "each process adds already_running or already_completed",
        },
    ),
    Command(
        "ci",
        "up --wait, then stop everything: exit 0 when the whole stack got ready, 1 naming the "
        "process that did not (its status, the condition, its last stderr lines)",
        FORWARD,
        args=(START_ARGS[1],),
        idempotent=False,
        examples=("procler ci --timeout 120s",),
        errors=(*SUPERVISED, *STARTING, DependencyFailed, Timeout, ConditionImpossible),
        output={
            "type": "object",
            "properties": {
                "ready": {"type": "boolean"},
                "stopped": {"type": "boolean"},
                "processes": {"type": "array"},
                "not_ready": {
                    "type": "array",
                    "description": "name, status, condition, why, last_exit, stderr",
                },
            },
        },
    ),
    Command(
        "send",
        "write a line of text to a process's stdin (it needs `stdin: true`): for a program "
        "that stops to ask (Press y to continue, Select a project:)",
        FORWARD,
        args=(
            Arg("name", "process name", required=True),
            Arg("text", "what to write (UTF-8; a newline is added)", required=True),
            Arg("--no-newline", "write the text alone, without a newline", type="boolean"),
        ),
        idempotent=False,
        examples=('procler send devserver "y"', "procler send repl 'print(1)' --no-newline"),
        errors=(*SUPERVISED, ProcessNotFound, StdinClosed, ProcessNotRunning, Timeout),
        output={
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "bytes": {"type": "integer", "description": "bytes written to its stdin"},
                "run": {"type": "integer", "description": "the run they went to"},
            },
        },
    ),
    Command(
        "why",
        "why a process is or is not running: desired state, each dependency and whether it "
        "holds, the dependency down at the root of its chain, last exit and stderr, restart "
        "budget, what it waits for, the verdicts of its readiness (health) and liveness checks",
        FORWARD,
        read_only=True,
        args=(Arg("name", "process name", required=True),),
        examples=("procler why worker",),
        errors=(*SUPERVISED, ProcessNotFound),
        output={
            "type": "object",
            "properties": {
                "why": {"type": "string"},
                "dependency_down": {
                    "type": ["object", "null"],
                    "description": "the dependency down at the root of the chain: name, path "
                    "(this process -> ... -> it)",
                },
                "dependencies": {"type": "array"},
                "waiting_for": {"type": "array"},
                "last_exit": {"type": ["object", "null"]},
                "stderr": {"type": "array"},
                "restart_budget": {"type": "object"},
                "health": {"type": "object"},
                "liveness": {"type": "object"},
            },
        },
    ),
    Command(
        "down",
        "stop every process, dependents first, and end the session: the next `up` runs the "
        "one-shots again",
        IF_RUNNING,
        destructive=True,
        examples=("procler down",),
        errors=(*SUPERVISED, *UNREACHABLE, *FROM_DISK),
        output=PROCESSES,
    ),
    Command(
        "group start",
        "start a group's members and what they depend on, in dependency order and in the "
        "group's list order (each once the one listed before it has started, as Procler 0.3)",
        FORWARD,
        args=(GROUP, START_ARGS[1]),
        examples=("procler group start backend",),
        errors=(*GROUP_ERRORS, *STARTING, DependencyFailed),
        output=PROCESSES,
    ),
    Command(
        "group stop",
        "stop a group's members in reverse dependency order",
        IF_RUNNING,
        destructive=True,
        args=(GROUP,),
        examples=("procler group stop backend",),
        errors=(*SUPERVISED, *FROM_DISK, *UNREACHABLE),
        output=PROCESSES,
    ),
    Command(
        "group status",
        "status of every member of a group",
        IF_RUNNING,
        read_only=True,
        args=(GROUP,),
        examples=("procler group status backend",),
        errors=(*SUPERVISED, *FROM_DISK),
        output=PROCESSES,
        table=PROCESS_TABLE,
    ),
    Command(
        "exec",
        "run a one-off command in the project's environment (captured at first start, plus the "
        "config's vars), locally or in a running container; answers exit code and output",
        FORWARD,
        args=(
            Arg("cmd", "the command line (run by /bin/sh -c)", required=True, metavar="CMD"),
            *EXEC_WHERE,
            Arg(
                "--cwd",
                "working directory, relative to the project root (default: the root)",
                type="path",
            ),
            Arg(
                "--timeout",
                "stop it (TERM, then KILL) after this long",
                type="duration",
                default="60s",
            ),
        ),
        idempotent=False,
        destructive=True,
        examples=(
            "procler exec 'alembic upgrade head'",
            "procler exec 'psql -c \\dt' --container my-postgres --timeout 10s",
        ),
        errors=(*SUPERVISED, *EXEC_ERRORS),
        output={
            "type": "object",
            "properties": {
                "command": {"type": "string"},
                "context": {"type": "string"},
                "exit_code": {"type": ["integer", "null"]},
                "signal": {"type": ["integer", "null"]},
                "stdout": {"type": "string"},
                "stderr": {"type": "string"},
                "truncated": {"type": "boolean", "description": "output past 64 KiB a stream cut"},
                "duration_seconds": {"type": "number"},
                "timed_out": {"type": "boolean"},
            },
        },
    ),
    Command(
        "group list",
        "the groups defined in the config, with their members",
        IF_RUNNING,
        read_only=True,
        examples=("procler group list",),
        errors=(*SUPERVISED, *FROM_DISK),
        output={"type": "object", "properties": {"groups": {"type": "array"}}},
    ),
)
