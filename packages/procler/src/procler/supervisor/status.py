"""The `status` answers: one process's (the same keys whatever context runs it), and the
supervisor's own (`daemon status`)."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from procler import __version__, project, states
from procler.config.model import ProcessSpec
from procler.contexts import registry
from procler.supervisor.clock import iso

if TYPE_CHECKING:
    from procler.supervisor.core import Supervisor
    from procler.supervisor.runtime import ProcessRuntime
    from procler.supervisor.sampler import ProcessSampler


# spec id -> (the spec, the row's start): made once per spec, as a status call makes a
# row per process many times a second (a copy costs a third of building the row again).
# Bounded: cleared when reloads have left it this many old specs.
_ROW_STARTS: dict[int, tuple[ProcessSpec, dict[str, Any]]] = {}
ROW_STARTS_KEPT = 20_000


def _row_start(spec: ProcessSpec) -> dict[str, Any]:
    """A status row in its key order, with what the spec gives filled in."""
    known = _ROW_STARTS.get(id(spec))
    if known is not None and known[0] is spec:
        return known[1]
    if len(_ROW_STARTS) >= ROW_STARTS_KEPT:
        _ROW_STARTS.clear()
    row: dict[str, Any] = {
        # shell: true when a shell runs the program (`pid` is then the program's)
        "name": spec.name,
        "status": None,
        "context": spec.context,
        "pid": None,
        "shell": spec.keeps_shell and registry.kind(spec.context).on_host,
        "started_at": None,
        "uptime_seconds": None,
        "run": None,
        "restarts": None,
        "exit_code": None,
        "last_exit": None,
        "desired": None,
        "dependency_down": None,
        "dependency_path": None,
        "why": None,
        "source": spec.source,
        "tags": None,
        "namespaces": None,
        "ports": None,  # the ports the config says it listens on
        "replica_of": spec.replica_of,  # an instance NAME-i: NAME (None: no replicas)
        "memory_rss_bytes": None,
        "cpu_percent": None,
        **registry.status_fields(),
    }
    _ROW_STARTS[id(spec)] = (spec, row)
    return row


def not_autostarted(name: str) -> str:
    return (
        f"autostart: false: up, ci, start --all and group starts leave {name} alone unless a "
        f"process they start depends on it; `procler start {name}` starts it"
    )


def resting_status(
    spec: ProcessSpec, status: str, saved: Mapping[str, Any], log_ready: bool = False
) -> dict[str, Any]:
    """The status of a process with no live run, from what is saved about it (desired,
    runs, restarts, last_exit): also the answer from disk when no supervisor runs."""
    last_exit = saved["last_exit"]
    out = dict(_row_start(spec))
    out["status"] = status
    out["run"] = saved["runs"]
    out["restarts"] = saved["restarts"]
    out["exit_code"] = None if last_exit is None else last_exit.get("code")
    out["last_exit"] = last_exit
    out["desired"] = saved["desired"]
    if states.left_alone(spec.autostart, status, saved["desired"]):
        out["why"] = not_autostarted(spec.name)
    out["tags"] = list(spec.tags)  # each row its own lists
    out["namespaces"] = list(spec.namespaces)
    out["ports"] = list(spec.ports)
    if spec.ready_log_line is not None:
        out["log_ready"] = log_ready
    if spec.stdin:
        out["stdin"] = True  # `procler send` writes to it
    return out


def process_status(
    runtime: ProcessRuntime,
    sampler: ProcessSampler,
    now: float,
    down: tuple[str, str, list[str]] | None = None,
) -> dict[str, Any]:
    """Everything an agent needs about one process, from the runtime and a /proc sample
    (pid, memory, CPU and linux_state at most a second old: see procler.supervisor.sampler).

    `down` is (dependency, why, path) when a dependency of a process that runs (or should)
    died or was stopped, directly or further down its chain (RuntimeHost.dependency_down)."""
    saved = {
        "desired": runtime.desired,
        "runs": runtime.run,
        "restarts": runtime.restarts,
        "last_exit": runtime.last_exit,
    }
    out = resting_status(runtime.spec, runtime.status, saved, runtime.log_ready)
    if down is not None:
        out["dependency_down"], out["why"], out["dependency_path"] = down
    previous = runtime.previous
    if previous is not None and previous.ended is not True:
        out["previous_run"] = previous.describe()  # see supervisor/previous_runs.py
        out["why"] = out["why"] or previous.why()
    if runtime.health is not None:
        out["health"] = runtime.health.summary()
    if runtime.liveness is not None:
        out["liveness"] = runtime.liveness.summary()
    proc = runtime.proc
    if proc is not None and runtime.status in states.ALIVE:
        out["started_at"] = iso(runtime.started_at)
        out["uptime_seconds"] = round(now - runtime.started_at, 3) if runtime.started_at else None
        leader = proc.pid
        if leader is None:
            out.update(proc.details(None))
            return out
        started = runtime.started_at or now
        sample = sampler.sample(
            runtime.name, proc, leader, runtime.status, out["shell"], now, started
        )
        out["pid"] = sample.pid
        out.update(sample.details)
        if sample.rss_bytes is not None:
            out["memory_rss_bytes"] = sample.rss_bytes
            out["cpu_percent"] = sample.cpu_percent
    return out


def described(sup: Supervisor, rt: ProcessRuntime, sampler: ProcessSampler) -> dict[str, Any]:
    """A process's status answer, as `status` and the event stream's snapshot give it: its
    status row, and its output, watch and schedule state when it has one."""
    status = process_status(rt, sampler, sup.clock.time(), sup.host.dependency_down(rt))
    lost = sup.output.unstored(rt.name)
    if lost is not None:
        status["output_warning"] = lost  # running, but what it prints is being lost
    watch = sup.watcher.describe(rt.name)
    if watch is not None:
        status["watch"] = watch
    schedule = sup.schedules.describe(rt.name)
    if schedule is not None:
        status["schedule"] = schedule
    return status


def supervisor_status(sup: Supervisor) -> dict[str, Any]:
    """The supervisor itself: pid, version, uptime, project, config, socket."""
    return {
        "running": True,
        "responding": True,
        "pid": os.getpid(),
        "version": __version__,
        "started_at": iso(sup.started_at),
        "uptime_seconds": round(time.time() - sup.started_at, 3),
        "project_root": sup.root,
        "config": project.named_files(sup.config_path)[0],
        "config_files": project.config_files(sup.config_path),
        "socket": project.socket_path(sup.root),
        "processes": len(sup.runtimes),
    }
