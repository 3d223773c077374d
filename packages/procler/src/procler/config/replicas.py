"""`replicas: N`: a process becomes N instance specs NAME-0 ... NAME-(N-1).

Each instance is built from the same checked mapping with `PROCLER_REPLICA` (its index)
and, with `port_base`, `PROCLER_PORT` (port_base + index * port_step) defined. Text values
take them in the builder; values that are not text (ports, probe ports) are substituted in
the YAML nodes before the schema reads them (procler.config.typed_vars), so those that use
either variable are kept as templates and read again for each instance here.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from procler.config.findings import Findings, child
from procler.config.model import Dependency, ProcessSpec, ReplicaSet
from procler.config.specs import Spec
from procler.config.substitute import SubstitutionError, substitute
from procler.config.yaml_nodes import YNode

REPLICA_VAR = "PROCLER_REPLICA"
PORT_VAR = "PROCLER_PORT"
# A reference to either variable (`$${...}` is a literal, never a reference).
_PER_INSTANCE = re.compile(r"(?<!\$)\$\{(?:PROCLER_REPLICA|PROCLER_PORT)(?::-[^}]*)?\}")
_STEP = re.compile(r"\.?([^.\[\]]+)|\[(\d+)\]")
# What the schema reads for a template before the instances exist: replica 0's index, and
# a port any port check accepts (each instance's own value is checked again).
PLACEHOLDERS = {REPLICA_VAR: "0", PORT_VAR: "1"}

Lookup = Callable[[str], str | None]
Templates = dict[str, tuple[Spec, YNode]]  # YAML path -> (its spec, the node as written)


def per_instance(text: str) -> bool:
    """The text uses PROCLER_REPLICA or PROCLER_PORT: its value differs per instance."""
    return _PER_INSTANCE.search(text) is not None


def with_placeholders(lookup: Lookup) -> Lookup:
    def look(name: str) -> str | None:
        return PLACEHOLDERS[name] if name in PLACEHOLDERS else lookup(name)

    return look


def instance_vars(raw: dict[str, Any], index: int) -> dict[str, str]:
    """The variables an instance defines: its index and, with port_base, its port."""
    out = {REPLICA_VAR: str(index)}
    port = instance_port(raw, index)
    if port is not None:
        out[PORT_VAR] = str(port)
    return out


def instance_lookup(raw: dict[str, Any], index: int, lookup: Lookup) -> Lookup:
    """The config's variables with the instance's own before them."""
    own = instance_vars(raw, index)

    def look(name: str) -> str | None:
        return own[name] if name in own else lookup(name)

    return look


def instance_port(raw: dict[str, Any], index: int) -> int | None:
    base = raw.get("port_base")
    if not isinstance(base, int):  # absent, or INVALID (a finding says why)
        return None
    step = raw.get("port_step", 1)
    return int(base + index * (step if isinstance(step, int) else 1))


def instance_raw(
    raw: dict[str, Any],
    name: str,
    templates: Templates,
    lookup: Lookup,
    findings: Findings,
) -> dict[str, Any]:
    """The process's checked mapping with each template read again for this instance
    (`lookup` defines its variables); a value that breaks there is a finding at its node."""
    prefix = child("processes", name)
    mine = {p: t for p, t in templates.items() if p.startswith(prefix + ".")}
    if not mine:
        return raw
    out = copy.deepcopy(raw)
    for path, (spec, node) in mine.items():
        try:
            text = substitute(node.text, lookup)
        except SubstitutionError as exc:
            findings.on(node, path, exc.message, exc.suggestion)
            continue
        value = spec.check(replace(node, text=text), path, findings)
        _put(out, path[len(prefix) + 1 :], value)
    return out


def _put(tree: Any, path: str, value: Any) -> None:
    steps = [int(i) if i else k for k, i in _STEP.findall(path)]
    for step in steps[:-1]:
        tree = tree[step]
    tree[steps[-1]] = value


def unused_templates(name: str, templates: Templates, findings: Findings) -> None:
    """A process without `replicas` has no instance index: its templates are findings."""
    prefix = child("processes", name) + "."
    for path, (_spec, node) in templates.items():
        if path.startswith(prefix):
            findings.on(
                node,
                path,
                f"{REPLICA_VAR} and {PORT_VAR} are defined only in a process with replicas",
                f"add replicas: N (and port_base for {PORT_VAR}) to {name}, or remove the reference",
            )


def check_collisions(
    sets: Mapping[str, ReplicaSet], processes: Mapping[str, ProcessSpec], findings: Findings
) -> None:
    """An instance name that another process has is a config error at `replicas`."""
    for rset in sets.values():
        for instance in rset.instances:
            other = processes.get(instance)
            if other is not None and other.replica_of != rset.name:
                findings.add(
                    child(child("processes", rset.name), "replicas"),
                    f"{rset.name}'s replica {instance} has the name of process {instance}",
                    f"rename process {instance}, or rename {rset.name}",
                )


def check_port_range(name: str, raw: dict[str, Any], count: int, findings: Findings) -> None:
    last = instance_port(raw, count - 1)
    if last is not None and last > 65535:
        findings.add(
            child(child("processes", name), "port_base"),
            f"{name}'s replica {count - 1} would get port {last}, above 65535",
            "lower port_base or port_step, or run fewer replicas",
        )


def check_schedule(name: str, raw: dict[str, Any], count: int, findings: Findings) -> None:
    """A schedule fires one run at a time: it cannot have more than one instance (neither
    in the config nor by `procler scale`)."""
    if count > 1 and "schedule" in raw:
        findings.add(
            child(child("processes", name), "replicas"),
            f"{count} replicas with a schedule: a schedule fires one run",
            "remove replicas, or define one scheduled process per instance",
        )


def expand_dependencies(
    processes: dict[str, ProcessSpec],
    sets: Mapping[str, ReplicaSet],
    findings: Findings,
) -> dict[str, ProcessSpec]:
    """Each dependency on a process with replicas becomes one entry per instance."""
    out: dict[str, ProcessSpec] = {}
    for name, spec in processes.items():
        deps: list[Dependency] = []
        for index, dep in enumerate(spec.depends_on):
            rset = sets.get(dep.name)
            if rset is None:
                if dep.min is not None:
                    _min_without_replicas(spec, index, dep, findings)
                deps.append(dep)
                continue
            if dep.min is not None and dep.min > rset.count:
                findings.add(
                    child(_dependency_at(spec, index), "min"),
                    f"{dep.name} runs {rset.count} replica(s): min {dep.min} can never hold",
                    f"use a min of at most {rset.count}, or more replicas",
                )
            deps += [replace(dep, name=i, replica_of=dep.name) for i in rset.instances]
        out[name] = replace(spec, depends_on=tuple(deps))
    return out


def _dependency_at(spec: ProcessSpec, index: int) -> str:
    return f"{child(child('processes', spec.replica_of or spec.name), 'depends_on')}[{index}]"


def _min_without_replicas(
    spec: ProcessSpec, index: int, dep: Dependency, findings: Findings
) -> None:
    findings.add(
        child(_dependency_at(spec, index), "min"),
        f"min counts replicas, and {dep.name} has no replicas",
        "remove min, or give the dependency replicas: N",
    )


def resolve_count(name: str, declared: int, scale: Mapping[str, Any]) -> int:
    """The instances to run: the scaled count while the config still gives the count it
    gave when `procler scale` ran (an edited count in the config wins)."""
    scaled = scale.get(name)
    if isinstance(scaled, dict) and scaled.get("declared") == declared:
        count = scaled.get("count")
        if isinstance(count, int) and count >= 1:
            return count
    return declared


def declared_view(
    processes: Mapping[str, ProcessSpec], sets: Mapping[str, ReplicaSet]
) -> dict[str, ProcessSpec]:
    """One spec per process as the config names it (what an export describes): a process
    with replicas is its instance 0 under its own name, with the config's count, without
    the instance's own variables, and dependencies on instances folded back to their
    process."""
    out: dict[str, ProcessSpec] = {}
    for name, spec in processes.items():
        if spec.replica_of is not None:
            if spec.replica_of in out:
                continue
            spec = replace(
                spec,
                name=spec.replica_of,
                replicas=sets[spec.replica_of].declared,
                replica=None,
                replica_of=None,
                env=tuple((k, v) for k, v in spec.env if k not in PLACEHOLDERS),
            )
            name = spec.name
        out[name] = replace(spec, depends_on=fold_dependencies(spec.depends_on))
    return out


def fold_dependencies(deps: tuple[Dependency, ...]) -> tuple[Dependency, ...]:
    """Dependencies on instances folded back to one per process, as the config writes them."""
    folded: dict[str, Dependency] = {}
    for dep in deps:
        base = dep.replica_of or dep.name
        folded.setdefault(base, replace(dep, name=base, replica_of=None))
    return tuple(folded.values())
