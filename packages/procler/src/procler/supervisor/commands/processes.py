"""The process commands the supervisor answers (procler/cli/processes.py declares them):
start, stop, restart, status, wait, up, down, ci, why, exec and group ..."""

from __future__ import annotations

from typing import Any

from agentcli.errors import UsageError
from procler.errors import ConditionImpossible, Timeout
from procler.selection import (
    autostarted,
    group_list,
    group_members,
    instances,
    named,
    one_or_rolled,
    outside_namespaces,
    split_named,
    stop_answer,
    tagged,
)
from procler.supervisor.operations import START_WAIT, Operations, Row

Values = dict[str, Any]
EXEC_WAIT = 60.0  # default bound on `procler exec`


def timeout_of(values: Values, default: float = START_WAIT) -> float:
    return float(values.get("timeout") or default)


def chosen(ops: Operations, values: Values, verb: str) -> list[str]:
    """--all (within --namespace when given), or NAME: a process or every instance."""
    if values.get("all"):
        return tagged(ops.config(), {"namespace": values.get("namespace")})
    return instances(ops.config(), named(values, verb, ops.config()))


def started_together(ops: Operations, values: Values, names: list[str]) -> list[str]:
    """Of many chosen at once, those that start: without a namespace named, not the
    `autostart: false` ones (naming a namespace asks for its members)."""
    return names if values.get("namespace") else autostarted(ops.config(), names)


async def start(ops: Operations, values: Values) -> Any:
    names = chosen(ops, values, "start")
    if values.get("all"):
        names = started_together(ops, values, names)
    rows = await ops.start(
        names,
        with_deps=not values.get("no_deps"),
        timeout=timeout_of(values),
        rerun=bool(values.get("rerun")),
    )
    return started_answer(ops, values, names, rows)


def started_answer(ops: Operations, values: Values, names: list[str], rows: list[Row]) -> Any:
    """--all: every row (and what started outside --namespace); NAME: its row (rolled up
    over its instances) with the dependencies started first."""
    if values.get("all"):
        return outside_namespaces(values, names, {"processes": rows})
    target, deps = split_named(ops.config(), values["name"], rows)
    return {**target, "dependencies": deps} if deps else target


async def restart(ops: Operations, values: Values) -> Any:
    names = chosen(ops, values, "restart")
    rows = await ops.restart(
        names, timeout=timeout_of(values), clear_logs=bool(values.get("clear_logs"))
    )
    if values.get("all"):
        return {"processes": rows}
    return one_or_rolled(ops.config(), values["name"], rows)


async def stop(ops: Operations, values: Values) -> Any:
    names = chosen(ops, values, "stop")
    every = bool(values.get("all") or values.get("with_dependents"))
    rows = await ops.stop(names, with_dependents=every, kill=bool(values.get("kill")))
    return stop_answer(values, rows, ops.config(), ops.running())


async def up(ops: Operations, values: Values) -> Any:
    rerun = bool(values.get("rerun"))
    chosen_names = tagged(ops.config(), {"namespace": values.get("namespace")})
    names = started_together(ops, values, chosen_names)
    if values.get("namespace") is None:
        ops.stack_up()  # the whole stack: see supervisor/reloader.py
    if values.get("wait"):
        rows = await ops.up_and_wait(names, timeout=timeout_of(values), rerun=rerun)
        return {"ready": True, "processes": rows}
    rows = await ops.start(
        names, with_deps=not values.get("no_deps"), timeout=timeout_of(values), rerun=rerun
    )
    return started_answer(ops, {**values, "all": True}, names, rows)


async def ci(ops: Operations, values: Values) -> Any:
    rows = await ops.ci(timeout=timeout_of(values))
    return {"ready": True, "processes": rows, "stopped": True}


async def down(ops: Operations, values: Values) -> Any:
    stopped = await stop(ops, {**values, "all": True})
    ops.end_session()  # the next `up` runs the one-shots again
    return stopped


async def status(ops: Operations, values: Values) -> Any:
    cfg = ops.config()
    if values.get("name"):
        rows = [ops.describe(n) for n in instances(cfg, values["name"])]
        return one_or_rolled(cfg, values["name"], rows)
    return {"processes": [ops.describe(n) for n in tagged(cfg, values)]}


async def wait(ops: Operations, values: Values) -> Any:
    condition = values["for"]
    cfg = ops.config()
    if values.get("group"):
        names = group_members(cfg, values["group"])
    elif values.get("all"):
        names = list(cfg.processes)
    elif values.get("name"):
        names = instances(cfg, values["name"])
    else:
        raise UsageError(
            "name a process, or pass --group or --all", suggestion="e.g. `procler wait api`"
        )
    together = bool(values.get("group") or values.get("all"))

    def shaped(rows: list[Row]) -> dict[str, Any]:
        data: dict[str, Any] = {"condition": condition, "processes": rows}
        if values.get("group"):
            return {"group": values["group"], **data}
        if not together:
            return {**one_or_rolled(ops.config(), values["name"], rows), "condition": condition}
        return data

    try:
        rows = await ops.wait(names, condition, float(values["timeout"]), together=together)
    except (ConditionImpossible, Timeout) as exc:
        found = dict(exc.data or {})
        exc.data = {**shaped(found.pop("processes")), **found}
        raise
    return shaped(rows)


async def send(ops: Operations, values: Values) -> Any:
    return await ops.send(values["name"], values["text"], newline=not values.get("no_newline"))


async def why(ops: Operations, values: Values) -> Any:
    return ops.why(values["name"])


async def exec_(ops: Operations, values: Values) -> Any:
    return await ops.run_command(
        values["cmd"],
        context=values.get("context"),
        container=values.get("container"),
        cwd=values.get("cwd"),
        timeout=timeout_of(values, EXEC_WAIT),
    )


async def group_start(ops: Operations, values: Values) -> Any:
    rows = await ops.start_group(
        values["name"], with_deps=not values.get("no_deps"), timeout=timeout_of(values)
    )
    return {"group": values["name"], "processes": rows}


async def group_stop(ops: Operations, values: Values) -> Any:
    return {"group": values["name"], "processes": await ops.stop_group(values["name"])}


async def group_status(ops: Operations, values: Values) -> Any:
    return {"group": values["name"], "processes": ops.group_rows(values["name"])}


async def group_list_(ops: Operations, values: Values) -> Any:
    return group_list(ops.config())


COMMANDS = {
    "start": start,
    "stop": stop,
    "restart": restart,
    "status": status,
    "wait": wait,
    "up": up,
    "down": down,
    "ci": ci,
    "why": why,
    "send": send,
    "exec": exec_,
    "group start": group_start,
    "group stop": group_stop,
    "group status": group_status,
    "group list": group_list_,
}
