"""The `status` answers: one process's (the same keys whatever context runs it), and the
supervisor's own (`daemon status`)."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from procler import __version__, project, states
from procler.config.model import ProcessSpec
from procler.contexts import procfs
from procler.supervisor.clock import iso

if TYPE_CHECKING:
    from procler.supervisor.core import Supervisor
    from procler.supervisor.runtime import ProcessRuntime


class CpuMeter:
    """CPU percent of a process tree between two status calls (since start on the first)."""

    def __init__(self) -> None:
        self._last: dict[str, tuple[int | None, float, float]] = {}

    def percent(
        self, name: str, pid: int | None, cpu_seconds: float, now: float, started: float
    ) -> float:
        prev_pid, prev_cpu, prev_t = self._last.get(name, (None, 0.0, started))
        if prev_pid != pid:
            prev_cpu, prev_t = 0.0, started
        self._last[name] = (pid, cpu_seconds, now)
        elapsed = now - prev_t
        return round(100.0 * max(0.0, cpu_seconds - prev_cpu) / elapsed, 1) if elapsed > 0 else 0.0


def resting_status(
    spec: ProcessSpec, status: str, saved: Mapping[str, Any], log_ready: bool = False
) -> dict[str, Any]:
    """The status of a process with no live run, from what is saved about it (desired,
    runs, restarts, last_exit): also the answer from disk when no supervisor runs."""
    last_exit = saved["last_exit"]
    out: dict[str, Any] = {
        # shell: true when a shell runs the program (`pid` is then the program's)
        "name": spec.name,
        "status": status,
        "context": spec.context,
        "pid": None,
        "shell": spec.keeps_shell and spec.context == "local",
        "started_at": None,
        "uptime_seconds": None,
        "run": saved["runs"],
        "restarts": saved["restarts"],
        "exit_code": (last_exit or {}).get("code"),
        "last_exit": last_exit,
        "desired": saved["desired"],
        "dependency_down": None,
        "why": None,
        "source": spec.source,
        "tags": list(spec.tags),
        "namespaces": list(spec.namespaces),
        "memory_rss_bytes": None,
        "cpu_percent": None,
        "linux_state": None,
        "docker": None,
    }
    if spec.ready_log_line is not None:
        out["log_ready"] = log_ready
    return out


def process_status(
    runtime: ProcessRuntime, meter: CpuMeter, now: float, down: tuple[str, str] | None = None
) -> dict[str, Any]:
    """Everything an agent needs about one process, from the runtime and /proc.

    `down` is (dependency, why) when a dependency of a process that runs (or should)
    died or was stopped."""
    saved = {
        "desired": runtime.desired,
        "runs": runtime.run,
        "restarts": runtime.restarts,
        "last_exit": runtime.last_exit,
    }
    out = resting_status(runtime.spec, runtime.status, saved, runtime.log_ready)
    if down is not None:
        out["dependency_down"], out["why"] = down
    if runtime.health is not None:
        out["health"] = runtime.health.summary()
    if runtime.proc is not None and runtime.status in states.ALIVE:
        leader = runtime.proc.pid
        pid = leader
        if out["shell"] and pid is not None:
            # The shell leads the group; what the user thinks of as the process is its child.
            pid = next(iter(procfs.children(pid)), pid)
        out["pid"] = pid
        out["started_at"] = iso(runtime.started_at)
        out["uptime_seconds"] = round(now - runtime.started_at, 3) if runtime.started_at else None
        tree = procfs.tree(leader) if leader is not None else []
        out.update(runtime.proc.details(next((p for p in tree if p.pid == pid), None)))
        if tree:
            out["memory_rss_bytes"] = sum(p.rss_bytes for p in tree)
            cpu = sum(p.cpu_seconds for p in tree)
            out["cpu_percent"] = meter.percent(
                runtime.name, leader, cpu, now, runtime.started_at or now
            )
    return out


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
        "config": str(sup.config_path),
        "socket": project.socket_path(sup.root),
        "processes": len(sup.runtimes),
    }
