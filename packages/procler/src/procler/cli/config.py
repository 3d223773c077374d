"""The configuration commands (config init/validate/explain/show, define, remove, list):
their declarations, then their handlers (find the project, call the core, shape the answer);
define and remove are handled in procler.cli.definitions.

Imported by every CLI run for the declarations, so the handlers import the config core
only when they run.
"""

import os

from agentcli.commands import Arg, Column, Command, Table, TableView
from agentcli.errors import ConditionNotMet, UsageError
from procler.errors import (
    ConfigExists,
    ConfigInvalid,
    ConfigNotFound,
    Conflict,
    NamespaceNotFound,
    StateDirUnwritable,
    SupervisorUnavailable,
)
from procler.project import CONFIG_DIR, CONFIG_FILE, find_config

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from procler.config.model import ProjectConfig

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
DOCKER_ARGS = (
    Arg("--image", "run in a container Procler creates from this image (never pulled)"),
    Arg("--container", "run the command in this existing container (alone: start/stop it)"),
)

CONFIG_COMMANDS: "tuple[Command, ...]" = (
    Command(
        "config init",
        "create .procler/config.yaml (a commented template) and .procler/.gitignore here",
        HANDLERS + "init",
        args=(Arg("--force", "overwrite an existing config", type="boolean"),),
        idempotent=False,
        examples=("procler config init", "procler config init --force"),
        errors=(ConfigExists,),
        output={
            "type": "object",
            "properties": {
                "config": {"type": "string"},
                "root": {"type": "string"},
                "written": {"type": "array", "items": {"type": "string"}},
            },
        },
    ),
    Command(
        "config validate",
        "check the config; exit 1 with every finding (file, line, column, path) when invalid",
        HANDLERS + "validate",
        read_only=True,
        examples=("procler config validate", "procler --config other.yaml config validate"),
        errors=(ConfigNotFound, ConditionNotMet),
        output={
            "type": "object",
            "properties": {
                "valid": {"type": "boolean"},
                "config": {"type": "string"},
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
        "say in plain language what the config runs, where, in which order, and how health is checked",
        HANDLERS + "explain",
        read_only=True,
        examples=("procler config explain",),
        errors=(ConfigNotFound, ConfigInvalid),
        output={
            "type": "object",
            "properties": {
                "paragraph": {"type": "string"},
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
        "the resolved config as JSON: variables substituted, defaults filled, paths absolute",
        HANDLERS + "show",
        read_only=True,
        examples=("procler config show",),
        errors=(ConfigNotFound, ConfigInvalid),
        output={
            "type": "object",
            "description": "root, config_path, vars, processes, groups, logs",
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
            *DOCKER_ARGS,
            Arg(
                "--force", "replace a different runtime definition of the same name", type="boolean"
            ),
        ),
        examples=(
            "procler define tail --command 'tail -f app.log'",
            "procler define api --command 'uvicorn app:app' --env PORT=8001 --force",
            "procler define cache --image redis:7 --command 'redis-server --port 6390'",
        ),
        errors=(ConfigNotFound, ConfigInvalid, Conflict, StateDirUnwritable),
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
        errors=(ConfigNotFound, ConfigInvalid, Conflict, StateDirUnwritable, SupervisorUnavailable),
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
        errors=(ConfigNotFound, ConfigInvalid, NamespaceNotFound),
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
        output={
            "type": "object",
            "properties": {
                "processes": {"type": "array", "items": {"type": "object"}},
                "count": {"type": "integer"},
            },
        },
    ),
    Command(
        "help-llm",
        "a compact guide for an agent: every command, common workflows, error codes, exit codes",
        GUIDE + "help_llm",
        read_only=True,
        examples=("procler help-llm",),
        output={
            "type": "object",
            "properties": {
                "commands": {"type": "array", "items": {"type": "object"}},
                "workflows": {"type": "array", "items": {"type": "object"}},
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
        errors=(ConfigNotFound,),
        output={
            "type": "object",
            "properties": {
                "config": {"type": "string"},
                "exists": {"type": "boolean"},
                "root": {"type": "string"},
            },
        },
    ),
)


def config_path(values: "dict[str, Any]") -> "str":
    return find_config(os.getcwd(), values.get("config"))


def project(values: "dict[str, Any]") -> "ProjectConfig":
    """The current project, valid (ConfigInvalid / ConfigNotFound otherwise)."""
    from procler.config.load import load_project

    return load_project(config_path(values))


def _write_atomic(path: "str", text: "str") -> "None":
    temp = f"{path}.tmp-{os.getpid()}"
    with open(temp, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(temp, path)


def init(values: "dict[str, Any]", command: "Command") -> "dict[str, Any]":
    from procler.config.template import CONFIG_TEMPLATE, GITIGNORE

    cwd = os.getcwd()
    home = os.path.expanduser("~")
    if os.path.realpath(cwd) == os.path.realpath(home):
        raise UsageError(
            f"refusing to create a project in your home directory ({home}): every directory "
            "below it would belong to that project",
            suggestion="cd into the project's directory and run `procler config init` there",
        )
    folder = os.path.join(cwd, CONFIG_DIR)
    config = os.path.join(folder, CONFIG_FILE)
    if os.path.exists(config) and not values["force"]:
        raise ConfigExists(f"{config} already exists", data={"config": config})
    os.makedirs(folder, exist_ok=True)
    written = []
    for path, text in ((config, CONFIG_TEMPLATE), (os.path.join(folder, ".gitignore"), GITIGNORE)):
        if path == config or values["force"] or not os.path.exists(path):
            _write_atomic(path, text)
            written.append(path)
    return {"config": config, "root": cwd, "written": written}


def validate(values: "dict[str, Any]", command: "Command") -> "dict[str, Any]":
    from procler.config.load import check_config

    path = config_path(values)
    config, findings = check_config(path)
    if findings or config is None:
        count = len(findings.items)
        raise ConditionNotMet(
            f"the config has {count} error{'s' if count != 1 else ''}",
            suggestion="fix each error at the file:line in data.errors, then validate again",
            data={
                "valid": False,
                "config": path,
                "errors": findings.as_dicts(),
                "warnings": findings.warning_dicts(),
            },
        )
    from procler.config.explain import plural
    from procler.config.replicas import declared_view

    processes = len(declared_view(config.processes, config.replica_sets))
    groups = len(config.groups)
    warnings = findings.warning_dicts()
    return {
        "valid": True,
        "config": path,
        "root": str(config.root),
        "summary": f"{plural(processes, 'process')}, {plural(groups, 'group')}, "
        "no errors" + (f", {plural(len(warnings), 'warning')}" if warnings else ""),
        "processes": processes,
        "groups": groups,
        "warnings": warnings,
    }


def explain(values: "dict[str, Any]", command: "Command") -> "dict[str, Any]":
    from procler.config.explain import explain as explain_config

    config = project(values)
    return {"config": str(config.config_path), **explain_config(config)}


def show(values: "dict[str, Any]", command: "Command") -> "dict[str, Any]":
    from procler.config.serialize import config_json

    return config_json(project(values))


def list_processes(values: "dict[str, Any]", command: "Command") -> "dict[str, Any]":
    from procler.config.last_valid import load
    from procler.config.serialize import process_json, process_summary
    from procler.selection import tagged

    config, warning = load(config_path(values))  # a broken file: the last valid config
    row = process_json if values.get("resolve") else process_summary
    rows = [row(config.processes[name]) for name in tagged(config, values)]
    listed = {"processes": rows, "count": len(rows)}
    return {**listed, "config_warning": warning} if warning else listed


def config_snippet_names(path: "str") -> "set[str]":
    """Names of the YAML snippets (a saved snippet cannot shadow one)."""
    return set(yaml_config(path).snippets)


def yaml_config(path: "str") -> "ProjectConfig":
    """The YAML config alone (no runtime definitions), valid (ConfigInvalid otherwise)."""
    from procler.config.load import check_config, invalid

    config, findings = check_config(path, with_runtime=False)
    if findings or config is None:
        raise invalid(findings)
    return config
