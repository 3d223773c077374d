"""The handlers of `procler help-llm` and `procler config path` (declared in
procler.declarations.config): what an agent reads before its first call.

The guide is generated from the declarations (commands, their errors, the exit-code table);
the workflows are data here, and a test parses every step with the real parser, so neither
can drift from the commands. By default it is the index an agent reads once per session
(workflows, every command with the first clause of its summary, how to get more), within
GUIDE_LIMIT; `help-llm COMMAND` and `help-llm --full` give the details.
"""

import os
from typing import Any

from agentcli.commands import App, Command
from procler.project import CONFIG_DIR, CONFIG_FILE

# The default guide's bound: an agent reads it once per session and pays for all of it.
GUIDE_LIMIT = 8 * 1024
SHORT = 80  # characters of a command's summary in the index

# (what the agent wants, the commands in order)
WORKFLOWS: "tuple[tuple[str, tuple[str, ...]], ...]" = (
    (
        "start a project from nothing",
        ("procler config init", "procler config validate", "procler up --wait --timeout 60s"),
    ),
    ("check in CI that the stack comes up, then stop it", ("procler ci --timeout 120s",)),
    (
        "find out why a process is not running or not ready (read data, not only error)",
        (
            "procler status",
            "procler why api",
            "procler logs api --run last-failed --stream stderr --tail 50",
            "procler config explain",
        ),
    ),
    (
        "apply a changed config (processes, replicas, schedules)",
        ("procler config validate", "procler reload", "procler status"),
    ),
    (
        "run a deploy recipe, checking it first",
        ("procler recipe run deploy --dry-run", "procler recipe run deploy"),
    ),
    ("let someone read the stack over HTTP", ("procler serve --read-only --port 0",)),
    (
        "restart one process after a code change",
        ("procler restart api", "procler wait api --for healthy --timeout 30s"),
    ),
    ("stop everything and the supervisor", ("procler down", "procler daemon stop")),
)
MORE = (
    "`procler help-llm COMMAND` (e.g. `procler help-llm up`): its usage, arguments, examples, "
    "error codes with suggestions and output; `procler help-llm --full`: every command's usage "
    "and every error code; `procler capabilities`: all of it as JSON Schema"
)


def short(summary: "str") -> "str":
    """A summary's first clause, at most SHORT characters (cut at a word)."""
    for stop in ("; ", ": "):
        first = summary.split(stop)[0]
        summary = first if len(first) >= 12 else summary
    if len(summary) <= SHORT:
        return summary
    return summary[: SHORT - 3].rsplit(" ", 1)[0] + "..."


def help_llm(values: "dict[str, Any]", command: "Command") -> "dict[str, Any]":
    from agentcli.errors import EXIT_CODE_MEANINGS
    from agentcli.main import with_builtins
    from procler.declarations import APP

    app = with_builtins(APP)
    if values.get("command"):
        return one_command(app, " ".join(values["command"]))
    head = {
        "tool": app.name,
        "version": app.version,
        "about": app.description,
        "answers": "one JSON envelope on stdout: {schema_version, success, data, error, "
        "error_code, suggestion}; logs on stderr",
        "exit_codes": {str(code): meaning for code, meaning in EXIT_CODE_MEANINGS.items()},
        "workflows": [{"goal": goal, "steps": list(steps)} for goal, steps in WORKFLOWS],
    }
    if not values.get("full"):
        index = {cmd.name: short(cmd.summary) for cmd in app.commands}
        return {**head, "commands": index, "more": MORE}
    return {**head, **full_guide(app)}


def full_guide(app: "App") -> "dict[str, Any]":
    """Every command's usage and summary, and every error code with the commands raising it."""
    from agentcli.parser import usage_line

    errors: dict[str, dict[str, Any]] = {}
    for cmd in app.commands:
        for err in cmd.all_errors():
            entry = errors.setdefault(
                err.code,
                {
                    "code": err.code,
                    "exit_code": int(err.exit_code),
                    "suggestion": err.default_suggestion,
                    "commands": [],
                },
            )
            entry["commands"].append(cmd.name)
    return {
        "commands": [
            {
                "usage": usage_line(app, cmd),
                "summary": cmd.summary,
                "idempotent": cmd.idempotent,
                "destructive": cmd.destructive,
            }
            for cmd in app.commands
        ],
        "errors": sorted(errors.values(), key=lambda e: e["code"]),
    }


def one_command(app: "App", name: "str") -> "dict[str, Any]":
    """`help-llm COMMAND`: what capabilities says of it, with its usage and its errors'
    exit codes and suggestions."""
    from agentcli.commands import command_schema, error_schema
    from agentcli.errors import UsageError
    from agentcli.parser import did_you_mean, usage_line

    found = next((cmd for cmd in app.commands if cmd.name == name), None)
    if found is None:
        names = [cmd.name for cmd in app.commands]
        raise UsageError(
            f"no command {name!r}",
            suggestion=did_you_mean(name, names) or "`procler help-llm` lists every command",
        )
    return {
        **command_schema(found),
        "usage": usage_line(app, found),
        "errors": [error_schema(e) for e in found.all_errors()],
    }


def config_path(values: "dict[str, Any]", command: "Command") -> "dict[str, Any]":
    from procler.errors import ConfigNotFound
    from procler.project import SEPARATOR, config_files, find_config, named_files, project_root

    cwd = os.getcwd()
    try:
        found = find_config(cwd, values.get("config"))
    except ConfigNotFound:
        explicit = SEPARATOR.join(values.get("config") or []) or os.environ.get("PROCLER_CONFIG")
        first = named_files(explicit)[0] if explicit else os.path.join(CONFIG_DIR, CONFIG_FILE)
        path = os.path.abspath(os.path.join(cwd, first))
        return {"config": path, "files": [path], "exists": False, "root": cwd}
    files = config_files(found)
    return {"config": files[0], "files": files, "exists": True, "root": project_root(found)}
