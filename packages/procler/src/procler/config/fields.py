"""The config file's schema as one table: every key Procler reads, and what its value must be."""

from __future__ import annotations

from procler.config.schema import (
    Bool,
    Duration,
    Either,
    Enum,
    Int,
    ListOf,
    MapOf,
    Regex,
    Signal,
    Size,
    Str,
    Struct,
)

NAME_PATTERN = r"[A-Za-z0-9][A-Za-z0-9_-]*"
NAME_HINT = "use letters, digits, '-' and '_' (starting with a letter or digit)"
ENV_NAME_PATTERN = r"[A-Za-z_][A-Za-z0-9_]*"
ENV_NAME_HINT = "use letters, digits and '_' (not starting with a digit)"
SIGNALS = ("TERM", "INT", "QUIT", "HUP", "KILL", "USR1", "USR2", "WINCH")
CONDITIONS = ("started", "healthy", "completed_successfully")
POLICIES = ("no", "on-failure", "always")

PORT = Int(1, 65535)
DURATION = Duration()

HTTP_PROBE = Struct(
    {
        "url": Str(),
        "port": PORT,
        "path": Str(),
        "method": Enum("GET", "HEAD", "POST", "PUT", "OPTIONS"),
        "expect_status": Str(),  # "200-399" or "200"; parsed by the builder
        "headers": MapOf(Str()),
    },
    exclusive=("url", "port"),
)

TCP_PROBE = Struct({"host": Str(), "port": PORT})

HEALTHCHECK = Struct(
    {
        "exec": Str(),
        "http": HTTP_PROBE,
        "tcp": TCP_PROBE,
        "log": Regex(),
        "interval": DURATION,
        "timeout": DURATION,
        "retries": Int(1),
        "start_period": DURATION,
        "restart_on_unhealthy": Bool(),
    },
    exclusive=("exec", "http", "tcp", "log"),
    need_one=True,
)

DEPENDENCY = Either(
    Str(),
    Struct({"name": Str(), "condition": Enum(*CONDITIONS), "restart": Bool()}, required=("name",)),
)

RESTART = Either(
    Enum(*POLICIES),
    Struct(
        {
            "policy": Enum(*POLICIES),
            "max_restarts": Int(0),
            "backoff": Struct({"initial": DURATION, "max": DURATION, "reset_after": DURATION}),
        }
    ),
)

DOCKER = Struct(
    {"image": Str(), "container": Str(), "volumes": ListOf(Str()), "network_mode": Str()},
    exclusive=("image", "container"),
    need_one=True,
)

PROCESS = Struct(
    {
        "command": Str(),
        "args": ListOf(Str()),
        "cwd": Str(),
        "env": MapOf(Str(), ENV_NAME_PATTERN, ENV_NAME_HINT),
        "env_file": ListOf(Str(), scalar_ok=True),
        "description": Str(),
        "tags": ListOf(Str()),
        "ports": ListOf(PORT),
        "stop_signal": Signal(*SIGNALS),
        "stop_timeout": DURATION,
        "restart": RESTART,
        "success_exit_codes": ListOf(Int(0, 255)),
        "context": Enum("local", "docker"),
        "docker": DOCKER,
        "healthcheck": HEALTHCHECK,
        "depends_on": ListOf(DEPENDENCY),
    },
    exclusive=("command", "args"),
)

GROUP = Struct({"processes": ListOf(Str()), "description": Str()}, required=("processes",))

LOGS = Struct({"max_size": Size(), "max_files": Int(1)})

CONFIG = Struct(
    {
        "version": Int(1, 1),
        "vars": MapOf(Str(), ENV_NAME_PATTERN, ENV_NAME_HINT),
        "processes": MapOf(PROCESS, NAME_PATTERN, NAME_HINT),
        "groups": MapOf(GROUP, NAME_PATTERN, NAME_HINT),
        "logs": LOGS,
    },
    reserved=("recipes", "snippets"),
)
