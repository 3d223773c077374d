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
from procler.states import ALL as STATUSES

# A process's name names its log folder: bounded well under a file name's 255 bytes.
MAX_NAME = 128
NAME_PATTERN = rf"[A-Za-z0-9][A-Za-z0-9_-]{{0,{MAX_NAME - 1}}}"
NAME_HINT = f"use at most {MAX_NAME} letters, digits, '-' and '_' (starting with a letter or digit)"
# Docker's image reference grammar (name[:tag][@digest]), so a name the engine would
# refuse is a config or usage error before any definition is written.
_DOMAIN_PART = r"(?:[A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9])"
_PATH_PART = r"[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*"
IMAGE_PATTERN = (
    rf"(?:{_DOMAIN_PART}(?:\.{_DOMAIN_PART})*(?::[0-9]+)?/)?{_PATH_PART}(?:/{_PATH_PART})*"
    r"(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?"
    r"(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?"
)
MAX_IMAGE = 512
IMAGE_HINT = (
    "write a Docker image reference: lowercase name[:tag][@digest], e.g. postgres:16 "
    "or registry.local:5000/team/api:1.2"
)
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
        "expect_status": Str(),  # "200-399" or "200"; parsed by the builder
        "headers": MapOf(Str()),
    },
    exclusive=("url", "port"),
    sample={"port": 8000, "path": "/health"},
)

TCP_PROBE = Struct({"host": Str(sample="127.0.0.1"), "port": PORT}, sample={"port": 8000})

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
        "test": Str(),
        "http_get": Str(),
        "tcp_socket": Str(),
        **CHECK_TIMING,
        "restart_on_unhealthy": Bool(),
    },
    exclusive=PROBES,
    need_one=True,
    sample={"http": {"port": 8000, "path": "/health"}, "interval": "5s"},
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
)

# A command that stops the process (pg_ctl stop, nginx -s quit), run where it runs, with its
# environment and cwd, before stop_signal; `timeout` bounds it and the process's exit after.
STOP_COMMAND = Either(Str(), Struct({"command": Str(), "timeout": DURATION}, required=("command",)))
# process-compose's spelling, read as stop_command (command, timeout) and stop_signal (signal).
SHUTDOWN = Struct({"command": Str(), "timeout": DURATION, "signal": Signal(*SIGNALS)})

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
    ),
)

RESTART = Either(
    Enum(*POLICIES),
    Struct(
        {
            "policy": Enum(*POLICIES),
            "max_restarts": Int(0),
            "backoff": Struct({"initial": DURATION, "max": DURATION, "reset_after": DURATION}),
        },
        sample={"policy": "on-failure", "max_restarts": 5},
    ),
)

DOCKER = Struct(
    {
        "image": Matching(
            IMAGE_PATTERN, MAX_IMAGE, "an image reference", IMAGE_HINT, sample="postgres:16"
        ),
        "container": Str(sample="my-db"),
        "volumes": ListOf(Str()),
        "network_mode": Str(),
    },
    exclusive=("image", "container"),
    need_one=True,
)

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
            "exclude": ListOf(Str(), scalar_ok=True),
            "debounce": DURATION,
            "action": WATCH_ACTION,
            "cascade": Bool(),
        },
        required=("paths",),
    ),
)

PROCESS = Struct(
    {
        "command": Str(sample="python app.py"),
        "args": ListOf(Str(), sample=["python", "app.py"]),
        "cwd": Str(sample="services/api"),
        "env": MapOf(Str(sample="value"), ENV_NAME_PATTERN, ENV_NAME_HINT, key_sample="KEY"),
        "env_file": ListOf(Str(sample=".env"), scalar_ok=True),
        "description": Str(),
        "tags": ListOf(Str(sample="web")),
        "ports": ListOf(PORT),
        "stop_signal": Signal(*SIGNALS),
        "stop_timeout": DURATION,
        "stop_command": STOP_COMMAND,
        "shutdown": SHUTDOWN,
        "restart": RESTART,
        "success_exit_codes": ListOf(Int(0, 255)),
        "context": Enum("local", "docker"),
        "docker": DOCKER,
        "container": Str(),  # Procler 0.3's spelling of docker: {container: NAME}
        "healthcheck": HEALTHCHECK,
        "liveness": LIVENESS,
        "depends_on": ListOf(DEPENDENCY),
        "ready_log_line": Regex(),
        "max_memory": Size(),
        "schedule": SCHEDULE,
        "replicas": Int(1, MAX_REPLICAS),
        "port_base": PORT,
        "port_step": Int(1, 65535),
        "namespace": ListOf(Str(), scalar_ok=True),
        "autostart": Bool(),  # false: up and group starts leave it alone (unless needed)
        "stdin": Bool(),  # true: its stdin stays open for `procler send`
        "daemon_mode": Bool(),
        "daemon_match_pattern": Regex(),
        "daemon_pidfile": Str(),
        "daemon_container": Str(),
        "adopt_existing": Bool(),
        "export": Struct({"image": Str()}),  # hints read by `procler export` only
        "watch": WATCH,
    },
    exclusive=("command", "args"),
)

# A group is its mapping, or only its list of processes (`backend: [db, api]`).
GROUP = ListOr(
    "processes",
    Struct(
        {
            "processes": ListOf(Str(), sample=["db", "api"]),
            "description": Str(),
            "stop_order": ListOf(Str(), sample=["api", "db"]),
        },
        required=("processes",),
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
)
STEP_OUTCOMES = ("succeeded", "failed", "skipped")
WHEN = Struct(
    {
        "step": Str(),
        "outcome": Enum(*STEP_OUTCOMES),
        "process": Str(),
        "status": Enum(*STATUSES),
    },
    exclusive=("step", "process"),
    need_one=True,
)
STEP = Struct(
    {
        "id": Str(),
        "idempotent": Bool(),
        "retries": Int(0, 100),
        "retry_delay": DURATION,
        "when": WHEN,
        "snippet": Str(),
        "args": MapOf(Str(), ENV_NAME_PATTERN, ENV_NAME_HINT),
        "start": Str(sample="api"),
        "stop": Str(sample="api"),
        "restart": Str(),
        "group_start": Str(),
        "group_stop": Str(),
        "wait": DURATION,
        "wait_for": WAIT_FOR,
        "exec": Str(),
        "context": Enum("local", "docker"),
        "container": Str(),
        "cwd": Str(),
        "timeout": DURATION,
        "ignore_error": Bool(),
    },
    exclusive=STEP_KINDS,
    need_one=True,
)

RECIPE = Struct(
    {"description": Str(), "on_error": Enum("stop", "continue"), "steps": ListOf(STEP)},
    required=("steps",),
)

ARG_TYPES = ("string", "integer", "number", "boolean")
SNIPPET_ARG = Struct(
    {
        "type": Enum(*ARG_TYPES),
        "default": Str(),
        "required": Bool(),
        "choices": ListOf(Str()),
        "description": Str(),
    }
)
SNIPPET = Struct(
    {
        "command": Str(sample="python manage.py migrate"),
        "description": Str(),
        "context": Enum("local", "docker"),
        "container": Str(),
        "cwd": Str(),
        "tags": ListOf(Str()),
        "timeout": DURATION,
        "confirm": Bool(),
        "args": MapOf(SNIPPET_ARG, ENV_NAME_PATTERN, ENV_NAME_HINT),
    },
    required=("command",),
)

LOGS = Struct({"max_size": Size(1024, "1KB"), "max_files": Int(1)})
# The event stream (GET /v1/events, procler events): kept events, and a subscriber's queue.
EVENTS = Struct({"buffer": Int(1, 1_000_000), "subscriber_queue": Int(1, 1_000_000)})

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
)
