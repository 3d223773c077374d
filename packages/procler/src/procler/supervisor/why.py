"""`procler why NAME`: why a process is or is not running, in one answer: what was asked of
it, each dependency and whether its condition holds, how its last run ended, its restart
budget, and what it waits for."""

from __future__ import annotations

from typing import Any

from procler import states
from procler.selection import instances
from procler.supervisor.core import Supervisor
from procler.supervisor.runtime import ProcessRuntime
from procler.supervisor.status import not_autostarted


def _dependencies(sup: Supervisor, rt: ProcessRuntime) -> list[dict[str, Any]]:
    out = []
    for dep in rt.spec.depends_on:
        other = sup.runtimes[dep.name]
        out.append(
            {
                "name": dep.name,
                "condition": dep.condition,
                "status": other.status,
                "holds": states.dependency_met(dep.condition, other.status, other.log_ready),
            }
        )
    return out


def _sentence(
    rt: ProcessRuntime,
    unmet: list[dict[str, Any]],
    schedule: dict[str, Any] | None,
    down: tuple[str, str, list[str]] | None,
) -> str:
    reason = (rt.last_exit or {}).get("reason", "")
    if down is not None and rt.status not in states.AT_REST:
        # the cause now, before how the run began (an old supervisor_lost, a restart...)
        return f"{rt.name} is {rt.status} and its dependency {down[0]} is down: {down[1]}"
    if rt.previous is not None and rt.previous.ended is not True:
        return f"{rt.name} is {rt.status}: {rt.previous.why()}"
    if schedule is not None and rt.status == states.SCHEDULED:
        return f"{rt.name} is scheduled: its next run is at {schedule['next_run']}"
    if schedule is not None and schedule["paused"] and rt.status not in states.ALIVE:
        return f"{rt.name}'s schedule is paused; `procler start {rt.name}` arms it again"
    waits = ", ".join(f"{d['name']} to be {d['condition']} (it is {d['status']})" for d in unmet)
    if rt.status in states.UP or rt.status == states.STARTING:
        return f"{rt.name} is {rt.status}" + (
            f"; it was started after {reason}" if reason and rt.restarts else ""
        )
    if rt.status == states.BACKOFF:
        return f"{rt.name} ended ({reason}) and is waiting to be restarted"
    if rt.status in (states.FAILED, states.EXITED):
        return f"{rt.name} {rt.status}: {reason}; nothing restarts it until it is started again"
    if rt.status == states.STOPPING:
        return f"{rt.name} is being stopped"
    if states.left_alone(rt.spec.autostart, rt.status, rt.desired):
        return f"{rt.name} is {rt.status}: {not_autostarted(rt.name)}"
    if rt.desired == states.DESIRED_STOPPED:
        ended = f" (its last run ended: {reason})" if reason else ""
        return f"{rt.name} is stopped because nothing asked it to run{ended}; `procler start {rt.name}`"
    return f"{rt.name} should run and is stopped" + (f"; it waits for {waits}" if waits else "")


def why(sup: Supervisor, name: str) -> dict[str, Any]:
    rt = sup.runtime(name)
    deps = _dependencies(sup, rt)
    unmet = [d for d in deps if not d["holds"]]
    policy = rt.spec.restart
    down = sup.host.dependency_down(rt)
    data: dict[str, Any] = {
        "name": rt.name,
        "status": rt.status,
        "desired": rt.desired,
        "why": _sentence(rt, unmet, sup.schedules.describe(rt.name), down),
        "dependency_down": None if down is None else {"name": down[0], "path": down[2]},
        "dependencies": deps,
        "waiting_for": [f"{d['name']} {d['condition']}" for d in unmet],
        "last_exit": rt.last_exit,
        "stderr": list(rt.recent_stderr),
        "restart_budget": {
            "policy": policy.policy,
            "restarts": rt.restarts,
            "max_restarts": policy.max_restarts,
            "left": max(0, policy.max_restarts - rt.restarts),
        },
    }
    if rt.health is not None:
        data["health"] = rt.health.summary()
    if rt.liveness is not None:
        data["liveness"] = rt.liveness.summary()
    return data


def why_named(sup: Supervisor, name: str) -> dict[str, Any]:
    """why of a process, or of each instance of a process with replicas."""
    names = instances(sup.config(), name)
    if names == [name]:
        return why(sup, name)
    return {"name": name, "instances": [why(sup, n) for n in names]}
