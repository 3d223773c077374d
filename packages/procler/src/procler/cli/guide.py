"""The handlers of `procler help-llm` and `procler config path` (declared in
procler.declarations.config): what an agent reads before its first call.

The guide is generated from the declarations (commands, their errors, the exit-code table);
the workflows are data here, and a test parses every step with the real parser, so neither
can drift from the commands.
"""

import os
from typing import Any

from agentcli.commands import Command
from procler.project import CONFIG_DIR, CONFIG_FILE

# (what the agent wants, the commands in order)
WORKFLOWS: "tuple[tuple[str, tuple[str, ...]], ...]" = (
    (
        "start a project from nothing",
        ("procler config init", "procler config validate", "procler up"),
    ),
    ("bring the stack up and wait until it is ready", ("procler up --wait --timeout 60s",)),
    ("check in CI that the stack comes up, then stop it", ("procler ci --timeout 120s",)),
    (
        "find out why a process is not running",
        (
            "procler why api",
            "procler logs api --run previous --stream stderr --tail 50",
        ),
    ),
    (
        "restart one process after a code change",
        ("procler restart api", "procler wait api --for healthy --timeout 30s"),
    ),
    (
        "add a process without editing the config",
        ("procler define tail --command 'tail -f app.log'", "procler start tail"),
    ),
    ("stop everything and the supervisor", ("procler down", "procler daemon stop")),
)


def help_llm(values: "dict[str, Any]", command: "Command") -> "dict[str, Any]":
    from agentcli.errors import EXIT_CODE_MEANINGS
    from agentcli.main import with_builtins
    from agentcli.parser import usage_line
    from procler.declarations import APP

    app = with_builtins(APP)
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
        "tool": app.name,
        "version": app.version,
        "about": app.description,
        "answers": "one JSON envelope on stdout: {schema_version, success, data, error, "
        "error_code, suggestion}; logs on stderr",
        "commands": [
            {
                "usage": usage_line(app, cmd),
                "summary": cmd.summary,
                "idempotent": cmd.idempotent,
                "destructive": cmd.destructive,
            }
            for cmd in app.commands
        ],
        "workflows": [{"goal": goal, "steps": list(steps)} for goal, steps in WORKFLOWS],
        "errors": sorted(errors.values(), key=lambda e: e["code"]),
        "exit_codes": {str(code): meaning for code, meaning in EXIT_CODE_MEANINGS.items()},
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
