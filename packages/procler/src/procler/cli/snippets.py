"""The handlers of `snippet save` and `snippet remove`, which write the runtime
definitions file here, as `define` does (list, show and run are the supervisor's)."""

from agentcli.commands import Command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def save(values: "dict[str, Any]", command: "Command") -> "dict[str, Any]":
    import re

    from agentcli.errors import UsageError
    from procler.cli.config import config_path, config_snippet_names
    from procler.config import definitions
    from procler.config.keys import NAME_HINT, NAME_PATTERN
    from procler.contexts import registry
    from procler.project import project_root

    name = values["name"]
    if not re.fullmatch(NAME_PATTERN, name):
        raise UsageError(f"invalid snippet name {name!r}", suggestion=NAME_HINT)
    container = values.get("container")
    where = registry.exec_context(values.get("context"), container)
    if where in registry.in_containers() and not container:
        raise UsageError(f"--context {where} needs --container NAME", suggestion="name it")
    given = {
        "command": values["command"],
        "description": values.get("description") or "",
        "tags": list(values.get("tag") or ()),
        "context": where,
        "container": container,
    }
    path = config_path(values)
    root = project_root(path)
    changed = definitions.save_snippet(
        root, name, given, config_snippet_names(path), bool(values.get("force"))
    )
    return {"name": name, "changed": changed, "snippet": {"name": name, **given}}


def remove(values: "dict[str, Any]", command: "Command") -> "dict[str, Any]":
    from procler.cli.config import config_path
    from procler.config import definitions
    from procler.project import project_root

    removed = definitions.remove_snippet(project_root(config_path(values)), values["name"])
    return {"name": values["name"], "removed": removed}
