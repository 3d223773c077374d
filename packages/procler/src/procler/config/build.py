"""Turn the checked config tree into a ProjectConfig, then check the cross-references."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agentcli.parser import did_you_mean
from procler.config.build_process import ProcessBuilder, given
from procler.config.build_recipes import build_recipes
from procler.config.build_snippets import build_snippets
from procler.config.findings import Findings, child, item
from procler.config.graph import DependencyGraph
from procler.config.model import (
    EventSettings,
    Group,
    LogSettings,
    ProcessSpec,
    ProjectConfig,
    ReplicaSet,
)
from procler.config.replicas import (
    Templates,
    check_collisions,
    check_port_range,
    check_schedule,
    expand_dependencies,
    instance_lookup,
    instance_raw,
    resolve_count,
    unused_templates,
)
from procler.config.specs import INVALID
from procler.config.substitute import Expansion, SubstitutionError, chain_lookup, substitute


def build_project(
    tree: dict[str, Any],
    root: str,
    files: list[str],
    findings: Findings,
    environ: Mapping[str, str],
    templates: Templates | None = None,
    scale: Mapping[str, Any] | None = None,
) -> ProjectConfig:
    """`files`: the config's files, merged in this order; `templates`: the typed values to
    read again per replica (see config.replicas); `scale`: the `procler scale` counts."""
    expansion = Expansion()
    variables = resolve_vars(tree.get("vars"), findings, environ, expansion)
    lookup = chain_lookup(variables, environ, expansion=expansion)
    builder = ProcessBuilder(root, findings, lookup)
    raw_processes = tree.get("processes")
    processes: dict[str, ProcessSpec] = {}
    declared: dict[str, ProcessSpec] = {}  # one spec per name as the config writes it
    sets: dict[str, ReplicaSet] = {}
    for name, raw in (raw_processes if isinstance(raw_processes, dict) else {}).items():
        if raw is INVALID:
            continue
        if "replicas" not in given(raw, "replicas"):
            unused_templates(name, templates or {}, findings)
            declared[name] = processes[name] = builder.build(name, raw)
            continue
        count = resolve_count(name, raw["replicas"], scale or {})
        check_port_range(name, raw, count, findings)
        check_schedule(name, raw, count, findings)
        sets[name] = ReplicaSet(name, raw["replicas"], count)
        for index in range(count):
            instance = ProcessBuilder(root, findings, instance_lookup(raw, index, lookup))
            raw_i = instance_raw(raw, name, templates or {}, instance.lookup, findings)
            spec = instance.build(name, raw_i, index)
            processes[spec.name] = spec
            declared.setdefault(name, spec)
    check_collisions(sets, processes, findings)
    check_dependencies(declared, raw_processes or {}, findings)
    processes = expand_dependencies(processes, sets, findings)
    groups = _groups(tree.get("groups"), processes, sets, findings)
    logs = LogSettings(**given(tree.get("logs"), "max_size", "max_files"))
    snippets = build_snippets(tree.get("snippets"), builder)
    return ProjectConfig(
        root=Path(root),
        config_path=Path(files[0]),
        config_files=tuple(files),
        vars=tuple(variables.items()),
        processes=processes,
        groups=groups,
        recipes=build_recipes(
            tree.get("recipes"), {**processes, **declared}, groups, snippets, builder
        ),
        snippets=snippets,
        logs=logs,
        events=EventSettings(**given(tree.get("events"), "buffer", "subscriber_queue")),
        replica_sets=sets,
    )


def resolve_vars(
    raw: Any, findings: Findings, environ: Mapping[str, str], expansion: Expansion
) -> dict[str, str]:
    """Vars in file order; a var may use the environment and the vars above it. A var that
    cannot be resolved is a finding at its value, and empty for those that use it (so one
    broken var is said once, not again at every reference)."""
    resolved: dict[str, str] = {}
    lookup = chain_lookup(resolved, environ, expansion=expansion)
    for name, value in (raw if isinstance(raw, dict) else {}).items():
        if value is INVALID:
            continue
        try:
            resolved[name] = substitute(value, lookup)
        except SubstitutionError as exc:
            findings.add(child("vars", name), exc.message, exc.suggestion)
            resolved[name] = ""
    return resolved


def _dependency_path(raw_process: Any, index: int, name: str) -> str:
    """Where a depends_on entry's name sits: `depends_on[0]` or `depends_on[0].name`."""
    base = item(child(child("processes", name), "depends_on"), index)
    entries = raw_process.get("depends_on") if isinstance(raw_process, dict) else None
    entry = entries[index] if isinstance(entries, list) and index < len(entries) else None
    return child(base, "name") if isinstance(entry, dict) else base


def check_dependencies(
    processes: dict[str, ProcessSpec], raw: dict[str, Any], findings: Findings
) -> None:
    """Unknown names, repeated entries, `healthy` without a health check, and cycles, over
    the processes as the config names them (a process with replicas under its own name:
    one depends on all of its instances, or on `min` of them)."""
    names = list(processes)
    for name, spec in processes.items():
        seen: set[str] = set()
        for index, dep in enumerate(spec.depends_on):
            path = _dependency_path(raw.get(name), index, name)
            if dep.name not in processes:
                findings.add(
                    path,
                    f"{name} depends on unknown process {dep.name!r}",
                    did_you_mean(dep.name, names) or f"defined processes: {', '.join(names)}",
                )
            elif dep.name in seen:
                findings.add(path, f"{dep.name!r} is listed twice in depends_on", "keep one entry")
            elif dep.condition == "healthy" and processes[dep.name].healthcheck is None:
                findings.add(
                    child(path.removesuffix(".name"), "condition"),
                    f"{dep.name} has no healthcheck, so it can never become healthy",
                    f"add a healthcheck to {dep.name}, or use condition: started",
                )
            elif dep.condition == "log_ready" and processes[dep.name].ready_log_line is None:
                findings.add(
                    child(path.removesuffix(".name"), "condition"),
                    f"{dep.name} has no ready_log_line, so it can never be log_ready",
                    f"add ready_log_line: REGEX to {dep.name}, or use condition: started",
                )
            seen.add(dep.name)
    known = {n: [d.name for d in p.depends_on if d.name in processes] for n, p in processes.items()}
    for cycle in DependencyGraph(known).cycles():
        owner = cycle.path[-2]
        index = next(
            i for i, d in enumerate(processes[owner].depends_on) if d.name == cycle.path[-1]
        )
        findings.add(
            _dependency_path(raw.get(owner), index, owner),
            f"dependency cycle: {cycle.describe()}",
            "remove one of the depends_on entries in the cycle",
        )


def _groups(
    raw: Any,
    processes: dict[str, ProcessSpec],
    sets: Mapping[str, ReplicaSet],
    findings: Findings,
) -> dict[str, Group]:
    """Groups as the config writes them: a member with replicas stands for its instances
    (procler.selection.expand)."""
    groups: dict[str, Group] = {}
    names = [*processes, *sets]
    for gname, graw in (raw if isinstance(raw, dict) else {}).items():
        if graw is INVALID:
            continue
        members: list[str] = []
        listed = graw.get("processes")
        for index, member in enumerate(listed if isinstance(listed, list) else []):
            path = item(child(child("groups", gname), "processes"), index)
            if member is INVALID:
                continue
            if member not in processes and member not in sets:
                findings.add(
                    path,
                    f"group {gname} names unknown process {member!r}",
                    did_you_mean(member, names) or f"defined processes: {', '.join(names)}",
                )
            elif member in members:
                findings.add(path, f"{member!r} is listed twice in group {gname}", "keep one")
            else:
                members.append(member)
        stop_order = _stop_order(gname, graw, members, [*processes, *sets], findings)
        groups[gname] = Group(
            gname, tuple(members), stop_order=stop_order, **given(graw, "description")
        )
        _list_order(gname, members, processes, findings)
    return groups


def _list_order(
    gname: str, members: list[str], processes: dict[str, ProcessSpec], findings: Findings
) -> None:
    """Say, at the group's list, where its order is not what it seems: `group start`
    follows it (as Procler 0.3 did), starting each member once the one before it has
    started, which for a one-shot (`restart: no`) is not once it has completed; and `up`,
    `start` and recipes follow only depends_on."""
    graph = DependencyGraph.as_written(processes)
    added, contradicted = graph.listed_order(members)
    path = child(child("groups", gname), "processes")
    for earlier, later in added:
        spec = processes.get(earlier) or next(
            (s for s in processes.values() if s.replica_of == earlier), None
        )
        if spec is None or spec.restart.policy != "no" or spec.schedule is not None:
            continue  # services in a list: the order is the start order, nothing hides
        findings.warn(
            path,
            f"group {gname} lists the one-shot {earlier} before {later}: `procler group "
            f"start {gname}` starts {later} once {earlier} has started, not completed, and "
            f"`up`, `start` and recipes do not wait for {earlier} at all",
            f"to make {later} wait until {earlier} has completed, everywhere, add to {later}: "
            f"depends_on: [{{name: {earlier}, condition: completed_successfully}}]",
        )
    for earlier, later in contradicted:
        findings.warn(
            path,
            f"group {gname} lists {earlier} before {later}, but {earlier} depends on {later}: "
            f"{later} starts first",
            f"list {later} before {earlier}",
        )


def _stop_order(
    gname: str, graw: Any, members: list[str], processes: list[str], findings: Findings
) -> tuple[str, ...]:
    """groups.NAME.stop_order (Procler 0.3): known processes; members missing from it stop
    after the listed ones, a non-member listed in it is left alone (said as a warning)."""
    listed = graw.get("stop_order")
    order: list[str] = []
    for index, name in enumerate(listed if isinstance(listed, list) else []):
        path = item(child(child("groups", gname), "stop_order"), index)
        if name is INVALID:
            continue
        if name not in processes:
            findings.add(
                path,
                f"group {gname} stop_order names unknown process {name!r}",
                did_you_mean(name, processes) or f"group members: {', '.join(members)}",
            )
        elif name not in members:
            findings.warn(
                path, f"{name} is not a member of group {gname}", "it is not stopped by the group"
            )
        elif name not in order:
            order.append(name)
    return tuple(order)
