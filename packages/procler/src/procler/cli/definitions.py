"""The handlers of `procler define` and `procler remove` (declared in procler.declarations.config),
and what `procler run` uses to define a process and put the definition back when its start
fails: the runtime definitions kept in .procler/state, changed from the CLI process.

Imported only when one of these commands runs.
"""

import os

from agentcli.errors import UsageError
from procler.cli.config import config_path, yaml_config
from procler.project import project_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agentcli.commands import Command
    from procler.config.definitions import RuntimeDefinition


def _config_names(path: "str") -> "set[str]":
    """Names of the YAML processes (a process with replicas: its own name and each
    instance's); the config must be valid to change definitions."""
    config = yaml_config(path)
    return {*config.processes, *config.replica_sets}


def define(values: "dict[str, Any]", command: "Command") -> "dict[str, Any]":
    import re

    from procler.config import definitions
    from procler.config.keys import NAME_HINT, NAME_PATTERN
    from procler.config.serialize import process_json
    from procler.contexts import registry
    from procler.contexts.container_kind import IMAGE_HINT, IMAGE_PATTERN, MAX_IMAGE

    name = values["name"]
    if not re.fullmatch(NAME_PATTERN, name):
        raise UsageError(f"invalid process name {name[:80]!r}", suggestion=NAME_HINT)
    image = values.get("image")
    if image is not None and (len(image) > MAX_IMAGE or not re.fullmatch(IMAGE_PATTERN, image)):
        raise UsageError(f"--image {image[:80]!r} is not an image reference", suggestion=IMAGE_HINT)
    path = config_path(values)
    root = project_root(path)
    cwd = os.path.normpath(os.path.join(os.getcwd(), values.get("cwd") or root))
    try:
        cwd.encode("utf-8")
    except UnicodeEncodeError:
        raise UsageError(
            f"--cwd {cwd!r} is not valid UTF-8",
            suggestion="use a directory whose path is UTF-8 (definitions are stored as JSON)",
        ) from None
    if os.path.exists(cwd) and not os.path.isdir(cwd):
        raise UsageError(
            f"--cwd {cwd} is not a directory",
            suggestion="give a directory (relative to where you run the command), or leave "
            "--cwd out for the project root",
        )
    env = tuple(dict(values.get("env") or ()).items())  # a repeated --env KEY: the last wins
    container = values.get("container")
    if image and container:
        raise UsageError(
            "--image and --container exclude each other",
            suggestion="--image: Procler creates and owns a container; "
            "--container: run in (or start) an existing one",
        )
    if not (values.get("command") or image or container):
        raise UsageError(
            f"{name} needs a command",
            suggestion="give --command, or --image / --container for a process in a container",
        )
    context = values.get("context")
    if context in registry.in_containers() and not (image or container):
        raise UsageError(
            f"--context {context} needs --image or --container",
            suggestion=f"give --image IMAGE or --container NAME with --context {context}",
        )
    if (image or container) and context is not None and context not in registry.in_containers():
        raise UsageError(
            f"--image and --container run in a container, not in context {context}",
            suggestion=f"give --context {' or '.join(registry.in_containers())}, or leave it "
            f"out ({registry.CONTAINER_DEFAULT})",
        )
    definition = definitions.RuntimeDefinition(
        values.get("command"), cwd, env, image, container, context
    )
    changed = definitions.define(root, name, definition, _config_names(path), values["force"])
    return {"name": name, "changed": changed, "process": process_json(definition.to_spec(name))}


def definition_of(values: "dict[str, Any]") -> "RuntimeDefinition | None":
    """The runtime definition of values["name"] as it is now."""
    from procler.config import definitions

    return definitions.read_definitions(project_root(config_path(values))).get(values["name"])


def put_back(
    values: "dict[str, Any]", before: "RuntimeDefinition | None", command: "Command"
) -> "None":
    """Undo a definition `run` made: remove it, or restore the one it replaced."""
    if before is None:
        remove({"name": values["name"], "config": values.get("config")}, command)
        return
    from procler.cli.client import notify_reload
    from procler.config import definitions

    path = config_path(values)
    definitions.define(project_root(path), values["name"], before, _config_names(path), force=True)
    notify_reload(path)


def remove(values: "dict[str, Any]", command: "Command") -> "dict[str, Any]":
    from procler.config import definitions

    path = config_path(values)
    name = values["name"]
    names = _config_names(path)
    root = project_root(path)
    existing = definitions.read_definitions(root).get(name)
    if existing is not None and existing.image:
        from procler.cli.client import call

        # Its container outlives supervisors: one must know it before the definition goes.
        call(path, "reload", {}, autostart=True)
    changed = definitions.remove(root, name, names)
    if changed:
        from procler.cli.client import notify_reload

        notify_reload(path)  # a running supervisor stops (and cleans up) what it cannot name
    return {"name": name, "changed": changed}
