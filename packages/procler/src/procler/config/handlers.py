"""Handlers of the configuration commands: find the project, call the core, shape the answer."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from agentcli.commands import Command
from agentcli.errors import ConditionNotMet, UsageError
from procler.config.load import check_config, invalid, load_project
from procler.config.model import ProjectConfig
from procler.errors import ConfigExists
from procler.project import CONFIG_DIR, CONFIG_FILE, find_config, project_root

if TYPE_CHECKING:
    from procler.config.runtime import RuntimeDefinition


def _config_path(values: dict[str, Any]) -> str:
    return find_config(os.getcwd(), values.get("config"))


def project(values: dict[str, Any]) -> ProjectConfig:
    """The current project, valid (ConfigInvalid / ConfigNotFound otherwise)."""
    return load_project(_config_path(values))


def _write_atomic(path: str, text: str) -> None:
    temp = f"{path}.tmp-{os.getpid()}"
    with open(temp, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(temp, path)


def init(values: dict[str, Any], command: Command) -> dict[str, Any]:
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


def validate(values: dict[str, Any], command: Command) -> dict[str, Any]:
    path = _config_path(values)
    config, findings = check_config(path)
    if findings or config is None:
        count = len(findings.items)
        raise ConditionNotMet(
            f"the config has {count} error{'s' if count != 1 else ''}",
            suggestion="fix each error at the file:line in data.errors, then validate again",
            data={"valid": False, "config": path, "errors": findings.as_dicts()},
        )
    from procler.config.explain import plural

    groups = len(config.groups)
    return {
        "valid": True,
        "config": path,
        "root": str(config.root),
        "summary": f"{plural(len(config.processes), 'process')}, {plural(groups, 'group')}, "
        "no errors",
        "processes": len(config.processes),
        "groups": groups,
    }


def explain(values: dict[str, Any], command: Command) -> dict[str, Any]:
    from procler.config.explain import explain as explain_config

    config = project(values)
    return {"config": str(config.config_path), **explain_config(config)}


def show(values: dict[str, Any], command: Command) -> dict[str, Any]:
    from procler.config.serialize import config_json

    return config_json(project(values))


def list_processes(values: dict[str, Any], command: Command) -> dict[str, Any]:
    from procler.config.serialize import process_summary

    config = project(values)
    rows = [process_summary(spec) for spec in config.processes.values()]
    return {"processes": rows, "count": len(rows)}


def _config_names(path: str) -> set[str]:
    """Names of the YAML processes; the config must be valid to change definitions."""
    config, findings = check_config(path, with_runtime=False)
    if findings or config is None:
        raise invalid(findings)
    return set(config.processes)


def define(values: dict[str, Any], command: Command) -> dict[str, Any]:
    import re

    from procler.config import runtime
    from procler.config.fields import NAME_HINT, NAME_PATTERN
    from procler.config.serialize import process_json

    name = values["name"]
    if not re.fullmatch(NAME_PATTERN, name):
        raise UsageError(f"invalid process name {name!r}", suggestion=NAME_HINT)
    path = _config_path(values)
    root = project_root(path)
    cwd = os.path.normpath(os.path.join(os.getcwd(), values.get("cwd") or root))
    env = tuple(dict(values.get("env") or ()).items())  # a repeated --env KEY: the last wins
    image, container = values.get("image"), values.get("container")
    if image and container:
        raise UsageError(
            "--image and --container exclude each other",
            suggestion="--image: Procler creates and owns a container; "
            "--container: run in (or start) an existing one",
        )
    if not (values.get("command") or image or container):
        raise UsageError(
            f"{name} needs a command",
            suggestion="give --command, or --image / --container for a docker process",
        )
    definition = runtime.RuntimeDefinition(values.get("command"), cwd, env, image, container)
    changed = runtime.define(root, name, definition, _config_names(path), values["force"])
    return {"name": name, "changed": changed, "process": process_json(definition.to_spec(name))}


def definition_of(values: dict[str, Any]) -> RuntimeDefinition | None:
    """The runtime definition of values["name"] as it is now."""
    from procler.config import runtime

    return runtime.read_definitions(project_root(_config_path(values))).get(values["name"])


def put_back(values: dict[str, Any], before: RuntimeDefinition | None, command: Command) -> None:
    """Undo a definition `run` made: remove it, or restore the one it replaced."""
    if before is None:
        remove({"name": values["name"], "config": values.get("config")}, command)
        return
    from procler.client import notify_reload
    from procler.config import runtime

    path = _config_path(values)
    runtime.define(project_root(path), values["name"], before, _config_names(path), force=True)
    notify_reload(path)


def remove(values: dict[str, Any], command: Command) -> dict[str, Any]:
    from procler.config import runtime

    path = _config_path(values)
    name = values["name"]
    names = _config_names(path)
    root = project_root(path)
    existing = runtime.read_definitions(root).get(name)
    if existing is not None and existing.image:
        from procler.client import RELOAD_WAIT, call

        # Its container outlives supervisors: one must know it before the definition goes.
        call(path, "reload", {}, RELOAD_WAIT, autostart=True)
    changed = runtime.remove(root, name, names)
    if changed:
        from procler.client import notify_reload

        notify_reload(path)  # a running supervisor stops (and cleans up) what it cannot name
    return {"name": name, "changed": changed}
