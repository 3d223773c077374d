"""The handler of `procler namespace list`, which reads the config here (no supervisor
needed)."""

from agentcli.commands import Command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def namespace_list(values: "dict[str, Any]", command: "Command") -> "dict[str, Any]":
    import os

    from procler import project
    from procler.config.last_valid import load
    from procler.selection import namespaces_of

    config, warning = load(project.find_config(os.getcwd(), values.get("config")))
    listed = {"namespaces": [{"name": n, "processes": p} for n, p in namespaces_of(config).items()]}
    return {**listed, "config_warning": warning} if warning else listed
