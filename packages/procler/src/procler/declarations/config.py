"""The configuration commands (config init/validate/explain/show/schema/path, define,
remove, list, help-llm): their declarations. They run in the CLI process (procler.cli.config,
procler.cli.definitions, procler.cli.guide)."""

from agentcli.commands import Arg, Column, Command, Table, TableView
from agentcli.skill_command import ChangedFileError
from procler.contexts.registry import CONTAINER_DEFAULT, CONTEXTS
from procler.errors import (
    ConfigExists,
    ConfigInvalid,
    ConfigNotFound,
    Conflict,
    NamespaceNotFound,
    PermissionDenied,
    StateDirUnwritable,
    SupervisorUnavailable,
)

HANDLERS = "procler.cli.config:"
DEFINITIONS = "procler.cli.definitions:"
GUIDE = "procler.cli.guide:"
FINDING = {
    "type": "object",
    "description": "one finding: where it is and how to fix it",
    "properties": {
        "file": {"type": "string"},
        "line": {"type": "integer"},
        "column": {"type": "integer"},
        "path": {"type": "string", "description": "YAML path, e.g. processes.web.depends_on[0]"},
        "message": {"type": "string"},
        "suggestion": {"type": "string"},
    },
}
NAME = Arg("name", "process name (at most 128 letters, digits, '-' and '_')", required=True)
# Said under every table view (`--format table`): the config's errors while the last
# valid config is used in its place.
NOTES = ("config_warning",)
# Where the table views' status colours are (procler.status_styles), named by string so the
# declarations load it only when a table is printed.
STYLES = "procler.status_styles:"
# Where a one-off command runs: a context, and the running container of a container one.
EXEC_WHERE = (
    Arg("--context", "where it runs", choices=tuple(CONTEXTS), default="local"),
    Arg(
        "--container",
        f"the running container to run it in (alone: --context {CONTAINER_DEFAULT})",
    ),
)
# Where a runtime definition runs: a context, and a container context's image or container.
CONTAINER_ARGS = (
    Arg(
        "--context",
        f"where it runs (default: local; with --image or --container, {CONTAINER_DEFAULT})",
        choices=tuple(CONTEXTS),
    ),
    Arg("--image", "run in a container Procler creates from this image (never pulled)"),
    Arg("--container", "run the command in this existing container (alone: start/stop it)"),
)

CONFIG_COMMANDS: "tuple[Command, ...]" = (
    Command(
        "config init",
        "create .procler/config.yaml (a commented template) and .procler/.gitignore here",
        HANDLERS + "init",
        args=(
            Arg("--force", "overwrite an existing config", type="boolean"),
            Arg(
                "--skills",
                "also install Procler's Agent Skill here for Copilot, Claude Code and Codex "
                "(as `procler skills install`)",
                type="boolean",
            ),
        ),
        idempotent=False,
        examples=(
            "procler config init",
            "procler config init --skills",
            "procler config init --force",
        ),
        errors=(ConfigExists, ChangedFileError),
        output={
            "type": "object",
            "properties": {
                "config": {"type": "string"},
                "root": {"type": "string"},
                "written": {"type": "array", "items": {"type": "string"}},
                "skills": {
                    "type": "object",
                    "description": "with --skills: what skills install answers",
                },
            },
        },
    ),
    Command(
        "config validate",
        "check the config; CONFIG_INVALID (exit 2, as every command answers for this file) "
        "with every finding (file, line, column, path, and a suggestion showing the shape "
        "expected as YAML) when invalid",
        HANDLERS + "validate",
        read_only=True,
        examples=("procler config validate", "procler --config other.yaml config validate"),
        errors=(ConfigNotFound, PermissionDenied, ConfigInvalid),
        output={
            "type": "object",
            "properties": {
                "valid": {"type": "boolean"},
                "config": {"type": "string"},
                "config_files": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "every file merged, in order",
                },
                "summary": {"type": "string"},
                "errors": {"type": "array", "items": FINDING},
                "warnings": {
                    "type": "array",
                    "items": FINDING,
                    "description": "accepted, but read differently or not acted on yet",
                },
            },
        },
    ),
    Command(
        "config explain",
        "say in plain language what the config runs, where, in which order, how health is "
        "checked and when it restarts (each sentence from the spec the supervisor runs), with "
        "hints on what is valid but likely wrong",
        HANDLERS + "explain",
        read_only=True,
        examples=("procler config explain",),
        errors=(ConfigNotFound, PermissionDenied, ConfigInvalid),
        output={
            "type": "object",
            "properties": {
                "paragraph": {"type": "string"},
                "hints": {
                    "type": "array",
                    "description": "what is valid but likely wrong, e.g. a process waiting "
                    "only for `started` on one with a health check: process, dependency, hint",
                    "items": {"type": "object"},
                },
                "start_order": {
                    "type": "array",
                    "description": "levels; processes in one level can start together",
                    "items": {"type": "array", "items": {"type": "string"}},
                },
                "counts": {"type": "object"},
            },
        },
    ),
    Command(
        "config show",
        "the resolved config as JSON: variables substituted, defaults filled, paths absolute; "
        "--origins: which file and line each value written came from",
        HANDLERS + "show",
        args=(
            Arg(
                "--origins",
                "add origins: each value's YAML path -> the file, line and column it came "
                "from (the files merged: --config given again, config.local.yaml)",
                type="boolean",
            ),
        ),
        read_only=True,
        secret=True,  # env values and vars
        examples=("procler config show", "procler config show --origins"),
        errors=(ConfigNotFound, PermissionDenied, ConfigInvalid),
        output={
            "type": "object",
            "description": "root, config_path, config_files (every file merged, in order), "
            "vars, processes, groups, logs; origins with --origins",
        },
    ),
    Command(
        "config schema",
        "the JSON Schema of the config file, every key with its type and rules",
        "procler.config.reference:schema_command",
        examples=("procler config schema",),
        output={"type": "object", "description": "a JSON Schema (draft 2020-12)"},
    ),
    Command(
        "define",
        "add a process to the project without editing the config (kept in .procler/state)",
        DEFINITIONS + "define",
        args=(
            NAME,
            Arg("--command", "shell command to run (optional with --image or --container)"),
            Arg("--cwd", "working directory (default: the project root)", type="path"),
            Arg("--env", "environment variable KEY=VALUE", type="key_value", multiple=True),
            *CONTAINER_ARGS,
            Arg(
                "--force", "replace a different runtime definition of the same name", type="boolean"
            ),
        ),
        examples=(
            "procler define tail --command 'tail -f app.log'",
            "procler define api --command 'uvicorn app:app' --env PORT=8001 --force",
            "procler define cache --image redis:7 --command 'redis-server --port 6390'",
        ),
        errors=(ConfigNotFound, PermissionDenied, ConfigInvalid, Conflict, StateDirUnwritable),
        output={
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "changed": {"type": "boolean", "description": "false: the same definition existed"},
                "process": {"type": "object"},
            },
        },
    ),
    Command(
        "remove",
        "remove a runtime definition (config processes are edited in the config instead)",
        DEFINITIONS + "remove",
        args=(NAME,),
        destructive=True,
        examples=("procler remove tail",),
        errors=(
            ConfigNotFound,
            PermissionDenied,
            ConfigInvalid,
            Conflict,
            StateDirUnwritable,
            SupervisorUnavailable,
        ),
        output={
            "type": "object",
            "properties": {"name": {"type": "string"}, "changed": {"type": "boolean"}},
        },
    ),
    Command(
        "list",
        "list every process definition with its source (config or runtime)",
        HANDLERS + "list_processes",
        read_only=True,
        args=(
            Arg(
                "--tag", "only processes carrying this tag (repeatable: any of them)", multiple=True
            ),
            Arg(
                "--resolve",
                "each process's whole resolved definition (vars substituted, defaults filled)",
                type="boolean",
            ),
            Arg("--namespace", "only the processes of these namespaces (comma-separated)"),
        ),
        examples=(
            "procler list",
            "procler list --tag backend",
            "procler list --resolve",
            "procler list --namespace backend",
        ),
        errors=(ConfigNotFound, PermissionDenied, ConfigInvalid, NamespaceNotFound),
        output={
            "type": "object",
            "properties": {
                "processes": {"type": "array", "items": {"type": "object"}},
                "count": {"type": "integer"},
            },
        },
        table=TableView(
            Table(
                (
                    Column("name"),
                    Column("source"),
                    Column("context"),
                    Column("command", "command|args", kind="words", width=50),
                    Column("depends on", "depends_on"),
                    Column("namespaces"),
                    Column("description", width=40),
                ),
                "processes",
                empty="no processes",
            ),
            notes=NOTES,
        ),
    ),
    Command(
        "help-llm",
        "a compact guide for an agent (at most 8 KB): workflows, every command in a line, exit "
        "codes and how to get more; COMMAND: one command's details; --full: every usage and "
        "error code",
        GUIDE + "help_llm",
        read_only=True,
        args=(
            Arg(
                "command",
                "a command to describe: usage, arguments, examples, errors, output",
                multiple=True,
            ),
            Arg("--full", "every command's usage and every error code", type="boolean"),
        ),
        examples=("procler help-llm", "procler help-llm group start", "procler help-llm --full"),
        output={
            "type": "object",
            "properties": {
                "commands": {
                    "type": ["object", "array"],
                    "description": "name -> first clause of its summary (with --full: usage "
                    "and summary of each)",
                },
                "workflows": {"type": "array", "items": {"type": "object"}},
                "more": {"type": "string", "description": "how to get the details"},
                "errors": {"type": "array", "items": {"type": "object"}},
                "exit_codes": {"type": "object"},
            },
        },
    ),
    Command(
        "config path",
        "where the config is (found walking up, or --config), or where `config init` would put it",
        GUIDE + "config_path",
        read_only=True,
        examples=("procler config path",),
        errors=(ConfigNotFound, PermissionDenied),
        output={
            "type": "object",
            "properties": {
                "config": {"type": "string"},
                "files": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "every file merged, in order (config.local.yaml last)",
                },
                "exists": {"type": "boolean"},
                "root": {"type": "string"},
            },
        },
    ),
)
