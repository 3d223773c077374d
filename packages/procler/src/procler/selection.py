"""Which processes a command names (NAME, --all, a group) and in which order they stop.

Shared by the supervisor's handlers and the answers given from disk without one
(procler.offline), so both read a command's arguments the same way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from agentcli.errors import UsageError
from procler import states
from procler.config.graph import DependencyGraph
from procler.config.model import ProjectConfig
from procler.errors import GroupNotFound, NamespaceNotFound, ProcessNotFound


def tagged(config: ProjectConfig, values: dict[str, Any]) -> list[str]:
    """The processes carrying one of the --tag values (every process without --tag), in
    one of the --namespace ones when given."""
    tags = set(values.get("tag") or ())
    names = [n for n, spec in config.processes.items() if not tags or tags & set(spec.tags)]
    if values.get("namespace") is not None:
        chosen = set(in_namespaces(config, split_namespaces(values["namespace"])))
        names = [n for n in names if n in chosen]
    return names


def autostarted(config: ProjectConfig, names: list[str]) -> list[str]:
    """The processes a start of many (up, ci, start --all, group start) starts of these:
    those without `autostart: false` (a dependency of one of them starts all the same)."""
    return [n for n in names if config.processes[n].autostart]


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
    """A group's processes (a member with replicas as its instances)."""
    if name not in config.groups:
        raise GroupNotFound.among(name, config.groups)
    return expand(config, config.groups[name].processes)


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


def stop_answer(
    values: dict[str, Any],
    outcomes: list[dict[str, Any]],
    config: ProjectConfig,
    running: Iterable[str] = (),
) -> Any:
    """The answer of `stop`: every outcome with --all, else the named process's (and its
    dependents' with --with-dependents), and `dependents_running`: the processes still
    running that depend on it, directly or not (`running`: the names up now)."""
    if values.get("all"):
        return {"processes": outcomes}
    found, rest = split_named(config, values["name"], outcomes)
    if values.get("with_dependents"):
        found = {**found, "dependents": rest}
    return {**found, "dependents_running": dependents_running(config, values["name"], running)}


def dependents_running(config: ProjectConfig, name: str, running: Iterable[str]) -> list[str]:
    """What depends on NAME (any instance of it, transitively) among `running`, in config
    order: stopping NAME stops only NAME, and these go on without it."""
    graph = DependencyGraph.from_config(config)
    up = set(running)
    mine = instances(config, name)
    found = {d for n in mine for d in graph.dependents(n)} - set(mine)
    return [n for n in config.processes if n in found and n in up]


def split_named(
    config: ProjectConfig, name: str, outcomes: list[dict[str, Any]]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """NAME's outcome (its instances' rolled up) and the other outcomes."""
    mine = set(instances(config, name))
    found = one_or_rolled(config, name, [o for o in outcomes if o["name"] in mine])
    return found, [o for o in outcomes if o["name"] not in mine]


def instances(config: ProjectConfig, name: str) -> list[str]:
    """The processes NAME stands for: itself, or each instance of a process with replicas."""
    if name in config.processes:
        return [name]
    rset = config.replica_sets.get(name)
    if rset is not None:
        return list(rset.instances)
    raise ProcessNotFound.among(name, [*config.replica_sets, *config.processes])


def expand(config: ProjectConfig, names: Iterable[str]) -> list[str]:
    """Names as a config writes them (a group's members), each as its processes."""
    return list(dict.fromkeys(n for name in names for n in instances(config, name)))


def rolled_up(name: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The answer for a process with replicas: each instance, and one status for all."""
    statuses = [row["status"] for row in rows]
    return {
        "name": name,
        "status": states.rollup(statuses),
        "replicas": len(rows),
        "counts": dict(Counter(statuses)),
        "instances": rows,
    }


def one_or_rolled(config: ProjectConfig, name: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The answer for NAME: its row, or the roll-up of its instances' rows."""
    return rolled_up(name, rows) if name in config.replica_sets else rows[0]


def namespaces_of(config: ProjectConfig) -> dict[str, list[str]]:
    """Each namespace and its processes, in config order."""
    out: dict[str, list[str]] = {}
    for name, spec in config.processes.items():
        for namespace in spec.namespaces:
            out.setdefault(namespace, []).append(name)
    return out


def in_namespaces(config: ProjectConfig, wanted: Iterable[str]) -> list[str]:
    """The processes in any of the namespaces (NAMESPACE_NOT_FOUND for one without any)."""
    known = namespaces_of(config)
    chosen = list(wanted)
    for namespace in chosen:
        if namespace not in known:
            raise NamespaceNotFound.among(namespace, known)
    return [n for n, spec in config.processes.items() if set(spec.namespaces) & set(chosen)]


def split_namespaces(text: str) -> list[str]:
    """`-n a,b` as a list of namespaces (a usage error when it names none)."""
    names = [part.strip() for part in text.split(",") if part.strip()]
    if not names:
        raise UsageError(f"no namespace in {text!r}", suggestion="e.g. `-n web` or `-n web,jobs`")
    return names


def outside_namespaces(
    values: dict[str, Any], selected: list[str], answer: dict[str, Any]
) -> dict[str, Any]:
    """With --namespace: the answer names the dependencies started outside the selection."""
    if values.get("namespace") is None:
        return answer
    wanted = set(selected)
    outside = [o["name"] for o in answer["processes"] if o["name"] not in wanted]
    out = {**answer, "namespaces": split_namespaces(values["namespace"])}
    if outside:
        out["outside_namespaces"] = outside
        out["warning"] = f"started outside the namespaces, as dependencies: {', '.join(outside)}"
    return out
