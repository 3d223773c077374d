"""The config file's schema as one table: every key Procler reads, and what its value must be."""

from __future__ import annotations

from procler.config.schedule_keys import SCHEDULE
from procler.config.specs import (
    Bool,
    Duration,
    Either,
    Enum,
    Int,
    ListOf,
    ListOr,
    MapOf,
    Matching,
    Regex,
    Signal,
    Size,
    Str,
    Struct,
)
from procler.contexts import registry
from procler.contexts.registry import CONTAINER_DEFAULT, CONTEXTS
from procler.states import ALL as STATUSES

# A process's name names its log folder: bounded well under a file name's 255 bytes.
MAX_NAME = 128
NAME_PATTERN = rf"[A-Za-z0-9][A-Za-z0-9_-]{{0,{MAX_NAME - 1}}}"
NAME_HINT = f"use at most {MAX_NAME} letters, digits, '-' and '_' (starting with a letter or digit)"
ENV_NAME_PATTERN = r"[A-Za-z_][A-Za-z0-9_]*"
ENV_NAME_HINT = "use letters, digits and '_' (not starting with a digit)"
SIGNALS = ("TERM", "INT", "QUIT", "HUP", "KILL", "USR1", "USR2", "WINCH")
CONDITIONS = ("started", "healthy", "log_ready", "completed_successfully")
POLICIES = ("no", "on-failure", "always")

PORT = Int(1, 65535, sample=8000)
MAX_REPLICAS = 1000
DURATION = Duration()

HTTP_PROBE = Struct(
    {
        "url": Str(sample="http://127.0.0.1:8000/health"),
        "port": PORT,
        "path": Str(sample="/health"),
        "method": Enum("GET", "HEAD", "POST", "PUT", "OPTIONS"),
        "expect_status": Str(sample="200-299"),  # "200-399" or "200"; parsed by the builder
        "headers": MapOf(Str(sample="Bearer dev"), key_sample="Authorization"),
    },
    exclusive=("url", "port"),
    sample={"port": 8000, "path": "/health"},
    about={
        "url": "the whole URL to request (instead of port and path)",
        "port": "the port on 127.0.0.1 to request (default: the process's first `ports` entry)",
        "path": ("the path to request on that port", "/"),
        "method": ("the HTTP method", "GET"),
        "expect_status": ("the status code, or range, that counts as healthy", "200-399"),
        "headers": "request headers, name to value",
    },
)

TCP_PROBE = Struct(
    {"host": Str(sample="127.0.0.1"), "port": PORT},
    sample={"port": 8000},
    about={
        "host": ("the host to connect to", "127.0.0.1"),
        "port": "the port that must accept a TCP connection (default: the first `ports` entry)",
    },
)

# Procler 0.3's probe spellings: `test` (a shell command), `http_get` (a URL), `tcp_socket`
# (host:port); each is the same probe as ours (exec, http.url, tcp).
SEED_PROBES = ("test", "http_get", "tcp_socket")
PROBES = ("exec", "http", "tcp", "log", *SEED_PROBES)

# The timing keys both checks share (docker's spelling; Kubernetes' initial_delay_seconds,
# period_seconds, timeout_seconds, failure_threshold and success_threshold are start_period,
# interval, timeout, retries and successes).
CHECK_TIMING = {
    "interval": DURATION,
    "timeout": DURATION,
    "retries": Int(1),
    "successes": Int(1, 1000),
    "start_period": DURATION,
}
LIVENESS_PROBES = ("exec", "http", "tcp", "log")

# `healthcheck:` is the readiness check (dependents wait for `healthy`).
HEALTHCHECK = Struct(
    {
        "exec": Str(sample="pg_isready"),
        "http": HTTP_PROBE,
        "tcp": TCP_PROBE,
        "log": Regex(),
        "test": Str(sample="pg_isready"),
        "http_get": Str(sample="http://127.0.0.1:8000/health"),
        "tcp_socket": Str(sample="127.0.0.1:5432"),
        **CHECK_TIMING,
        "restart_on_unhealthy": Bool(),
    },
    exclusive=PROBES,
    need_one=True,
    sample={"http": {"port": 8000, "path": "/health"}, "interval": "5s"},
    about={
        "exec": "a shell command run in the process's cwd and environment; exit 0 is healthy",
        "http": "an HTTP request; a status in `expect_status` is healthy",
        "tcp": "a TCP connection; accepted is healthy",
        "log": "healthy once an output line of the process matches this pattern",
        "test": "Procler 0.3's spelling of `exec`",
        "http_get": "Procler 0.3's spelling of `http: {url: ...}`",
        "tcp_socket": "Procler 0.3's spelling of `tcp`, as HOST:PORT",
        "interval": ("time between two probes", "10s"),
        "timeout": ("a probe not answered within this time fails", "5s"),
        "retries": ("failures in a row that make the process unhealthy", 3),
        "successes": ("passes in a row that make the process healthy", 1),
        "start_period": ("time after a start during which failures do not count", "0s"),
        "restart_on_unhealthy": ("restart the process when it turns unhealthy", False),
    },
)

# `liveness:`: `retries` failures in a row end the run, and its restart policy decides.
LIVENESS = Struct(
    {
        "exec": Str(),
        "http": HTTP_PROBE,
        "tcp": TCP_PROBE,
        "log": Regex(),
        **CHECK_TIMING,
    },
    exclusive=LIVENESS_PROBES,
    need_one=True,
    about={
        "exec": "a shell command run in the process's cwd and environment; exit 0 is alive",
        "http": "an HTTP request; a status in `expect_status` is alive",
        "tcp": "a TCP connection; accepted is alive",
        "log": "a heartbeat: alive when an output line matched this pattern since the "
        "previous probe",
        "interval": ("time between two probes", "10s"),
        "timeout": ("a probe not answered within this time fails", "5s"),
        "retries": ("failures in a row that end the run (its restart policy decides)", 3),
        "successes": ("passes in a row that count it alive", 1),
        "start_period": ("time after a start before the first probe", "0s"),
    },
)

# A command that stops the process (pg_ctl stop, nginx -s quit), run where it runs, with its
# environment and cwd, before stop_signal; `timeout` bounds it and the process's exit after.
STOP_COMMAND = Either(
    Str(),
    Struct(
        {"command": Str(), "timeout": DURATION},
        required=("command",),
        about={
            "command": "the command that stops the process, run where it runs",
            "timeout": "the bound on the command and on the process's exit after it "
            "(default: stop_timeout)",
        },
    ),
)
# process-compose's spelling, read as stop_command (command, timeout) and stop_signal (signal).
SHUTDOWN = Struct(
    {"command": Str(), "timeout": DURATION, "signal": Signal(*SIGNALS)},
    about={
        "command": "process-compose's spelling of `stop_command`",
        "timeout": "process-compose's spelling of the `stop_command` timeout (without a "
        "command: of `stop_timeout`)",
        "signal": "process-compose's spelling of `stop_signal`",
    },
)

DEPENDENCY = Either(
    Str(sample="db"),
    Struct(
        {
            "name": Str(sample="db"),
            "condition": Enum(*CONDITIONS),
            "restart": Bool(),
            "min": Int(1, MAX_REPLICAS),
        },
        required=("name",),
        sample={"name": "db", "condition": "healthy"},
        about={
            "name": "the process (or replicated process) this one waits for",
            "condition": ("what the dependency must reach before this process starts", "started"),
            "restart": ("restart this process when the dependency comes back", False),
            "min": "of a replicated dependency, how many instances must meet the condition "
            "(default: all)",
        },
    ),
)

RESTART = Either(
    Enum(*POLICIES),
    Struct(
        {
            "policy": Enum(*POLICIES),
            "max_restarts": Int(0),
            "backoff": Struct(
                {"initial": DURATION, "max": DURATION, "reset_after": DURATION},
                about={
                    "initial": ("the wait before the first restart", "1s"),
                    "max": ("the longest wait between restarts (it doubles up to this)", "30s"),
                    "reset_after": ("a run this long counts as stable: the budget resets", "60s"),
                },
            ),
        },
        sample={"policy": "on-failure", "max_restarts": 5},
        about={
            "policy": (
                "when an exit is followed by a restart: never, after a failure (an exit code "
                "not in `success_exit_codes`), or after any exit",
                "on-failure",
            ),
            "max_restarts": ("restarts in a row before the process is left failed", 5),
            "backoff": "the waits between restarts",
        },
    ),
)

# Each container context's settings, under the key of its name (`docker:`, `podman:`).
CONTAINER_SETTINGS = {
    k.name: settings for k in registry.kinds() if (settings := k.settings()) is not None
}
CONTAINERS = ", ".join(f"`context: {name}`" for name in CONTAINER_SETTINGS)

# What a file change under a process's `watch:` does: restart it, send it a signal, or
# run a command (in its cwd, with its environment).
WATCH_ACTION = Matching(
    rf"restart|signal:(?:SIG)?(?:{'|'.join(SIGNALS)})|exec:\S.*",
    4096,
    "a watch action",
    f"write restart, signal:NAME ({', '.join(SIGNALS)}) or exec:COMMAND",
    sample="restart",
)
WATCH = Either(
    Str(sample="src/**/*.py"),  # one glob
    Struct(
        {
            "paths": ListOf(Str(sample="src/**/*.py"), scalar_ok=True),
            "exclude": ListOf(Str(sample="**/*_test.py"), scalar_ok=True),
            "debounce": DURATION,
            "action": WATCH_ACTION,
            "cascade": Bool(),
        },
        required=("paths",),
        about={
            "paths": "globs of the files that trigger the action, relative to the process's cwd "
            "(files .gitignore ignores never do)",
            "exclude": "globs of files that never trigger it",
            "debounce": ("changes within this quiet time are one trigger", "300ms"),
            "action": ("what a change does", "restart"),
            "cascade": ("a restart also restarts the processes that depend on this one", False),
        },
    ),
)

PROCESS = Struct(
    {
        "command": Str(sample="python app.py"),
        "args": ListOf(Str(), sample=["python", "app.py"]),
        "cwd": Str(sample="services/api"),
        "env": MapOf(Str(sample="value"), ENV_NAME_PATTERN, ENV_NAME_HINT, key_sample="KEY"),
        "env_file": ListOf(Str(sample=".env"), scalar_ok=True),
        "description": Str(sample="the API server"),
        "tags": ListOf(Str(sample="web")),
        "ports": ListOf(PORT),
        "stop_signal": Signal(*SIGNALS),
        "stop_timeout": DURATION,
        "stop_command": STOP_COMMAND,
        "shutdown": SHUTDOWN,
        "restart": RESTART,
        "success_exit_codes": ListOf(Int(0, 255)),
        "context": Enum(*CONTEXTS),
        **CONTAINER_SETTINGS,
        "container": Str(sample="my-db"),  # Procler 0.3's spelling of docker: {container: NAME}
        "healthcheck": HEALTHCHECK,
        "liveness": LIVENESS,
        "depends_on": ListOf(DEPENDENCY),
        "ready_log_line": Regex(),
        "max_memory": Size(),
        "schedule": SCHEDULE,
        "replicas": Int(1, MAX_REPLICAS),
        "port_base": PORT,
        "port_step": Int(1, 65535),
        "namespace": ListOf(Str(sample="backend"), scalar_ok=True),
        "autostart": Bool(),
        "stdin": Bool(),
        "daemon_mode": Bool(),
        "daemon_match_pattern": Regex(),
        "daemon_pidfile": Str(sample="run/app.pid"),
        "daemon_container": Str(sample="my-db"),
        "adopt_existing": Bool(),
        # hints read by `procler export` only
        "export": Struct(
            {"image": Str(sample="registry.local/team/api:1.2")},
            about={"image": "the image `procler export` names for a process that has none"},
        ),
        "watch": WATCH,
    },
    exclusive=("command", "args"),
    about={
        "command": "the command line, run by a shell when it needs one (one of command, args)",
        "args": "the program and its arguments, run without a shell (one of command, args)",
        "cwd": "the working directory, relative to the project root (default: the root)",
        "env": "environment variables added to Procler's own, after those of env_file",
        "env_file": "dotenv files read at load, relative to the project root; `env` wins",
        "description": "what the process is, for the people and agents reading the config",
        "tags": "labels that select processes in commands (--tag)",
        "ports": "the ports it listens on: the default port of http and tcp health checks, "
        "`wait_for: {condition: port}`, and export",
        "stop_signal": ("the signal that asks it to stop", "TERM"),
        "stop_timeout": ("time between stop_signal and SIGKILL", "10s"),
        "stop_command": "a command that stops it (pg_ctl stop, nginx -s quit), run in its cwd "
        "with its environment before stop_signal",
        "shutdown": "process-compose's spelling of stop_command and stop_signal",
        "restart": ("what follows an exit: a policy, or a mapping with its budget", "on-failure"),
        "success_exit_codes": ("exit codes that count as a success", [0]),
        "context": (
            "where it runs: " + "; ".join(f"{k.name}: {k.about}" for k in registry.kinds()),
            "local",
        ),
        **{
            name: f"the container it runs in (with `context: {name}`)"
            for name in CONTAINER_SETTINGS
        },
        "container": "Procler 0.3's spelling of `CONTEXT: {container: NAME}` (CONTEXT: the "
        f"process's context, {CONTAINER_DEFAULT} without one)",
        "healthcheck": "the probe that tells whether it is healthy (one kind of probe)",
        "liveness": "the probe that tells whether it is alive: failures end the run, and its "
        "restart policy decides what follows",
        "depends_on": "processes started (and reaching their condition) before this one; "
        "stopped after it",
        "ready_log_line": "log_ready once an output line matches this pattern",
        "max_memory": "restarted when its process tree's resident memory stays above this "
        "for two samples in a row",
        "schedule": "run it as a one-shot on this schedule (no replicas)",
        "replicas": ("how many instances run, named NAME-0, NAME-1, ...", 1),
        "port_base": "instance i gets `${PROCLER_PORT}` = port_base + i * port_step in its "
        "values (and `${PROCLER_REPLICA}` = i)",
        "port_step": ("the distance between two instances' ports", 1),
        "namespace": ("the namespaces it belongs to (namespace start/stop)", ["default"]),
        "autostart": (
            "up, start --all and group start start it (false: only when named, or needed "
            "by one they start)",
            True,
        ),
        "stdin": ("its stdin stays open for `procler send` (else /dev/null)", False),
        "daemon_mode": (
            "the command forks a daemon and exits 0; Procler then follows the daemon",
            False,
        ),
        "daemon_match_pattern": "finds the daemon by its command line (with daemon_mode)",
        "daemon_pidfile": "finds the daemon by this pid file, relative to cwd (with daemon_mode)",
        "daemon_container": "the container the daemon runs in, for a command exec'd in a container",
        "adopt_existing": ("a daemon already running is followed, not started again", False),
        "export": "hints for `procler export`",
        "watch": "files whose change restarts it (or signals it, or runs a command)",
    },
)

# A group is its mapping, or only its list of processes (`backend: [db, api]`).
GROUP = ListOr(
    "processes",
    Struct(
        {
            "processes": ListOf(Str(), sample=["db", "api"]),
            "description": Str(sample="the back end"),
            "stop_order": ListOf(Str(), sample=["api", "db"]),
        },
        required=("processes",),
        about={
            "processes": "its processes, started in dependency order",
            "description": "what the group is (config explain and export name it)",
            "stop_order": "the order group stop stops them in (default: the reverse of the "
            "start order)",
        },
    ),
)

STEP_KINDS = (
    "start",
    "stop",
    "restart",
    "group_start",
    "group_stop",
    "wait",
    "wait_for",
    "exec",
    "snippet",
)
WAIT_FOR_CONDITIONS = ("running", "healthy", "log_ready", "completed_successfully", "port")
WAIT_FOR = Struct(
    {"process": Str(sample="api"), "condition": Enum(*WAIT_FOR_CONDITIONS), "timeout": DURATION},
    required=("process", "condition"),
    about={
        "process": "the process waited for",
        "condition": "what it must reach (port: one of its `ports` accepts connections)",
        "timeout": "the step fails past this time (default: the step's timeout)",
    },
)
STEP_OUTCOMES = ("succeeded", "failed", "skipped")
WHEN = Struct(
    {
        "step": Str(sample="migrate"),
        "outcome": Enum(*STEP_OUTCOMES),
        "process": Str(sample="db"),
        "status": Enum(*STATUSES),
    },
    exclusive=("step", "process"),
    need_one=True,
    about={
        "step": "the id of an earlier step whose outcome decides",
        "outcome": ("the outcome of `step` that runs this one", "succeeded"),
        "process": "the process whose status decides",
        "status": ("the status of `process` that runs this one", "running"),
    },
)
STEP = Struct(
    {
        "id": Str(sample="migrate"),
        "idempotent": Bool(),
        "retries": Int(0, 100),
        "retry_delay": DURATION,
        "when": WHEN,
        "snippet": Str(sample="migrate"),
        "args": MapOf(Str(sample="main"), ENV_NAME_PATTERN, ENV_NAME_HINT, key_sample="BRANCH"),
        "start": Str(sample="api"),
        "stop": Str(sample="api"),
        "restart": Str(sample="api"),
        "group_start": Str(sample="backend"),
        "group_stop": Str(sample="backend"),
        "wait": DURATION,
        "wait_for": WAIT_FOR,
        "exec": Str(sample="python manage.py migrate"),
        "context": Enum(*CONTEXTS),
        "container": Str(sample="my-db"),
        "cwd": Str(sample="services/api"),
        "timeout": DURATION,
        "ignore_error": Bool(),
    },
    exclusive=STEP_KINDS,
    need_one=True,
    about={
        "id": "the step's name, for `when` and the run's answer (default: KIND-N, N its place)",
        "idempotent": "may a resumed run run it again after it was interrupted (default: true; "
        "false for exec)",
        "retries": ("further attempts after a failure", 0),
        "retry_delay": ("the wait before the first retry; it doubles, up to 30s", "1s"),
        "when": "run the step only if this holds (else it is skipped)",
        "snippet": "run this snippet (one kind of step per step)",
        "args": "the snippet's arguments, name to value",
        "start": "start this process",
        "stop": "stop this process",
        "restart": "restart this process",
        "group_start": "start this group",
        "group_stop": "stop this group",
        "wait": "wait this long",
        "wait_for": "wait until a process reaches a condition",
        "exec": "run this command to its end; a non-zero exit fails the step",
        "context": ("where exec runs: here, or in a running container", "local"),
        "container": f"the running container exec runs in ({CONTAINERS}; {CONTAINER_DEFAULT} "
        "without a context)",
        "cwd": "exec's working directory, relative to the project root (default: the root)",
        "timeout": ("the step fails past this time", "60s"),
        "ignore_error": ("a failure of this step does not fail the recipe", False),
    },
)

RECIPE = Struct(
    {
        "description": Str(sample="migrate, then start the back end"),
        "on_error": Enum("stop", "continue"),
        "steps": ListOf(STEP),
    },
    required=("steps",),
    about={
        "description": "what the recipe does, shown by recipe list",
        "on_error": ("after a failed step: stop the run, or go on with the next", "stop"),
        "steps": "the steps, run in order",
    },
)

ARG_TYPES = ("string", "integer", "number", "boolean")
SNIPPET_ARG = Struct(
    {
        "type": Enum(*ARG_TYPES),
        "default": Str(sample="main"),
        "required": Bool(),
        "choices": ListOf(Str(sample="main")),
        "description": Str(sample="the branch to deploy"),
    },
    about={
        "type": ("the value's type, checked before the command runs", "string"),
        "default": "the value when the caller gives none",
        "required": ("the caller must give a value", False),
        "choices": "the only values accepted",
        "description": "what the argument is, shown by snippet show",
    },
)
SNIPPET = Struct(
    {
        "command": Str(sample="python manage.py migrate"),
        "description": Str(sample="apply the database migrations"),
        "context": Enum(*CONTEXTS),
        "container": Str(sample="my-db"),
        "cwd": Str(sample="services/api"),
        "tags": ListOf(Str(sample="db")),
        "timeout": DURATION,
        "confirm": Bool(),
        "args": MapOf(SNIPPET_ARG, ENV_NAME_PATTERN, ENV_NAME_HINT, key_sample="BRANCH"),
    },
    required=("command",),
    about={
        "command": "the command line; `@{NAME}` (or `@{NAME:default}`) is an argument's "
        "value, quoted for the shell",
        "description": "what it does, shown by snippet list",
        "context": ("where it runs: here, or in a running container", "local"),
        "container": f"the running container it runs in ({CONTAINERS}; {CONTAINER_DEFAULT} "
        "without a context)",
        "cwd": "its working directory, relative to the project root (default: the root)",
        "tags": "labels that select snippets (snippet list --tag)",
        "timeout": ("the run is killed past this time", "60s"),
        "confirm": ("snippet run refuses to run it without --yes", False),
        "args": "its arguments, by name",
    },
)

LOGS = Struct(
    {"max_size": Size(1024, "1KB"), "max_files": Int(1)},
    about={
        "max_size": ("a process's log file is rotated past this size", "10MB"),
        "max_files": ("log files kept per process; older ones are deleted", 5),
    },
)
# The event stream (GET /v1/events, procler events): kept events, and a subscriber's queue.
EVENTS = Struct(
    {"buffer": Int(1, 1_000_000), "subscriber_queue": Int(1, 1_000_000)},
    about={
        "buffer": ("events kept for a subscriber resuming from a sequence number", 10_000),
        "subscriber_queue": (
            "events waiting for a slow subscriber before it misses some (counted)",
            1_000,
        ),
    },
)

CONFIG = Struct(
    {
        "version": Int(1, 1),
        "vars": MapOf(Str(sample="8000"), ENV_NAME_PATTERN, ENV_NAME_HINT, key_sample="PORT"),
        "processes": MapOf(PROCESS, NAME_PATTERN, NAME_HINT, key_sample="api"),
        "groups": MapOf(GROUP, NAME_PATTERN, NAME_HINT, key_sample="backend"),
        "recipes": MapOf(RECIPE, NAME_PATTERN, NAME_HINT, key_sample="deploy"),
        "snippets": MapOf(SNIPPET, NAME_PATTERN, NAME_HINT, key_sample="migrate"),
        "logs": LOGS,
        "events": EVENTS,
    },
    about={
        "version": ("the config format's version", 1),
        "vars": "values `${NAME}` (or `${NAME:-default}`) is replaced with in the config; "
        "looked up before the environment",
        "processes": "the processes, by name",
        "groups": "named sets of processes started and stopped together",
        "recipes": "named sequences of steps (recipe run)",
        "snippets": "named commands run on demand (snippet run)",
        "logs": "the rotation of the processes' log files",
        "events": "the event stream (procler events, GET /v1/events)",
    },
)
