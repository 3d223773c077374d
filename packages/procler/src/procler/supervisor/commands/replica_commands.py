"""`procler scale NAME N` and `procler namespace start|stop|restart NS`: the supervisor's
side (procler/cli/replica_commands.py declares them)."""

from __future__ import annotations

from typing import Any

from procler.selection import split_namespaces
from procler.supervisor.commands.processes import Values, restart, start, timeout_of
from procler.supervisor.operations import Operations


async def scale(ops: Operations, values: Values) -> Any:
    done = await ops.scale(values["name"], int(values["count"]), timeout=timeout_of(values))
    return {
        "name": done.name,
        "replicas": done.replicas,
        "previous": done.previous,
        "added": done.added,
        "removed": done.removed,
        "instances": done.instances,
    }


async def namespace_start(ops: Operations, values: Values) -> Any:
    return await start(ops, {**values, "all": True, "namespace": values["name"]})


async def namespace_restart(ops: Operations, values: Values) -> Any:
    return await restart(ops, {**values, "all": True, "namespace": values["name"]})


async def namespace_stop(ops: Operations, values: Values) -> Any:
    done = await ops.stop_namespaces(split_namespaces(values["name"]))
    answer: dict[str, Any] = {"namespace": values["name"], "processes": done.stopped}
    if done.kept:
        answer["kept"] = done.kept
    return answer


COMMANDS = {
    "scale": scale,
    "namespace start": namespace_start,
    "namespace stop": namespace_stop,
    "namespace restart": namespace_restart,
}
