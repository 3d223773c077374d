"""`procler scale NAME N` and `procler namespace stop NS`: the supervisor's side.

Scaling writes the new count beside the runtime definitions (procler.config.scaling) and
reads the config again: new instances get runtimes and start when the process is wanted
running; instances past the count are retired (stopped gracefully, in parallel).
"""

from __future__ import annotations

from typing import Any, Protocol

from procler import states
from procler.config.findings import Findings
from procler.config.graph import DependencyGraph
from procler.config.keys import MAX_REPLICAS
from procler.config.load import check_config, invalid
from procler.config.scaling import read_scale, write_scale
from procler.errors import NotReplicated, ProcessNotFound
from procler.selection import in_namespaces, split_namespaces
from procler.supervisor.core import Supervisor
from procler.supervisor.runtime import ProcessRuntime


class Handlers(Protocol):
    """What these commands use of the supervisor's command handlers."""

    sup: Supervisor

    async def start_names(
        self, names: list[str], values: dict[str, Any]
    ) -> list[dict[str, Any]]: ...
    async def stop_names(self, names: list[str]) -> list[dict[str, Any]]: ...
    def describe(self, rt: ProcessRuntime) -> dict[str, Any]: ...


def _wanted(rt: ProcessRuntime) -> bool:
    return rt.desired == states.DESIRED_RUNNING or rt.status in states.ALIVE


async def scale(handlers: Handlers, values: dict[str, Any]) -> dict[str, Any]:
    """NAME runs COUNT instances: answered with the instances it runs now."""
    sup = handlers.sup
    sup.keeper.refuse_reload()  # the count is applied by reading the config again
    cfg = sup.config()
    name, count = values["name"], int(values["count"])
    rset = cfg.replica_sets.get(name)
    if rset is None:
        if name not in cfg.processes:
            raise ProcessNotFound.among(name, [*cfg.replica_sets, *cfg.processes])
        raise NotReplicated(f"{name} has no `replicas:` in the config, so it has no instances")
    if not 1 <= count <= MAX_REPLICAS:
        raise NotReplicated(
            f"cannot scale {name} to {count}",
            suggestion=f"give a count from 1 to {MAX_REPLICAS} (`procler stop {name}` stops all)",
        )
    before = list(rset.instances)
    wanted = any(_wanted(sup.runtimes[n]) for n in before)
    # a damaged file made the config invalid already (refused above)
    counts = read_scale(sup.root, Findings(""))
    counts[name] = {"declared": rset.declared, "count": count}
    checked, findings = check_config(str(sup.config_path), scale=counts)
    if findings or checked is None:
        raise invalid(findings)  # e.g. a new instance's name or port collides: nothing written
    write_scale(sup.root, counts)
    now = sup.keeper.read_again().replica_sets[name]
    await sup.settle()  # the instances past the count are stopped and forgotten
    added = [n for n in now.instances if n not in before]
    if added and wanted:
        await handlers.start_names(added, {"timeout": values.get("timeout")})
    return {
        "name": name,
        "replicas": count,
        "previous": len(before),
        "added": added,
        "removed": [n for n in before if n not in now.instances],
        "instances": [handlers.describe(sup.runtimes[n]) for n in now.instances],
    }


async def namespace_stop(handlers: Handlers, values: dict[str, Any]) -> dict[str, Any]:
    """Stop a namespace's processes, dependents first; one that a process outside the
    namespace needs (running, or wanted running) is kept, and said."""
    sup = handlers.sup
    cfg = sup.config()
    chosen = in_namespaces(cfg, split_namespaces(values["name"]))
    inside = set(chosen)
    graph = DependencyGraph.from_config(cfg)
    kept: dict[str, list[str]] = {}
    for name in chosen:
        needed_by = [
            d for d in graph.dependents(name) if d not in inside and _wanted(sup.runtimes[d])
        ]
        if needed_by:
            kept[name] = needed_by
    stopped = await handlers.stop_names([n for n in chosen if n not in kept])
    answer: dict[str, Any] = {"namespace": values["name"], "processes": stopped}
    if kept:
        answer["kept"] = [
            {**handlers.describe(sup.runtimes[n]), "needed_by": by} for n, by in kept.items()
        ]
    return answer
