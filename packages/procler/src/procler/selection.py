"""Which processes a command names (NAME, --all, a group) and in which order they stop.

Shared by the supervisor's handlers and the answers given from disk without one
(procler.offline), so both read a command's arguments the same way.
"""

from __future__ import annotations

from typing import Any

from agentcli.errors import UsageError
from procler.config.graph import DependencyGraph
from procler.config.model import ProjectConfig
from procler.errors import GroupNotFound


def tagged(config: ProjectConfig, values: dict[str, Any]) -> list[str]:
    """The processes carrying one of the --tag values (every process without --tag)."""
    tags = set(values.get("tag") or ())
    return [n for n, spec in config.processes.items() if not tags or tags & set(spec.tags)]


def named(values: dict[str, Any], verb: str, config: ProjectConfig) -> str:
    """The NAME argument of a command that also takes --all; UsageError when absent, whose
    suggestion is the same command on one of the project's processes."""
    if not values.get("name"):
        example = next(iter(config.processes), "NAME")
        raise UsageError(
            "name a process or pass --all",
            suggestion=f"e.g. `procler {verb} {example}`, or `procler {verb} --all`",
        )
    return str(values["name"])


def group_members(config: ProjectConfig, name: str) -> list[str]:
    if name not in config.groups:
        raise GroupNotFound.among(name, config.groups)
    return list(config.groups[name].processes)


def group_list(config: ProjectConfig) -> dict[str, Any]:
    return {
        "groups": [
            {"name": g.name, "description": g.description, "processes": list(g.processes)}
            for g in config.groups.values()
        ]
    }


def stop_levels(graph: DependencyGraph, names: list[str], with_dependents: bool) -> list[list[str]]:
    """The levels to stop names in (dependents first), with their dependents if asked."""
    if with_dependents:
        names = list(dict.fromkeys([*names, *(d for n in names for d in graph.dependents(n))]))
    chosen = set(names)
    levels = [[n for n in level if n in chosen] for level in graph.stop_levels(names)]
    return [level for level in levels if level]


def stop_answer(values: dict[str, Any], outcomes: list[dict[str, Any]]) -> Any:
    """The answer of `stop`: every outcome with --all, else the named process's (and its
    dependents' with --with-dependents)."""
    if values.get("all"):
        return {"processes": outcomes}
    target = values["name"]
    found = next(o for o in outcomes if o["name"] == target)
    if not values.get("with_dependents"):
        return found
    return {**found, "dependents": [o for o in outcomes if o["name"] != target]}
