"""The `status` answers: one process's (the same keys whatever context runs it), and the
supervisor's own (`daemon status`)."""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Any

from procler import __version__, project, states
from procler.contexts import procfs
from procler.supervisor.clock import iso
from procler.supervisor.runtime import ProcessRuntime

if TYPE_CHECKING:
    from procler.supervisor.core import Supervisor


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


def process_status(runtime: ProcessRuntime, meter: CpuMeter, now: float) -> dict[str, Any]:
    """Everything an agent needs about one process, from the runtime and /proc."""
    alive = runtime.proc is not None and runtime.status in states.ALIVE
    pid = runtime.proc.pid if alive and runtime.proc is not None else None
    out: dict[str, Any] = {
        "name": runtime.name,
        "status": runtime.status,
        "context": runtime.spec.context,
        "pid": pid,
        "started_at": iso(runtime.started_at) if alive else None,
        "uptime_seconds": round(now - runtime.started_at, 3)
        if alive and runtime.started_at
        else None,
        "run": runtime.run,
        "restarts": runtime.restarts,
        "exit_code": (runtime.last_exit or {}).get("code"),
        "last_exit": runtime.last_exit,
        "desired": runtime.desired,
        "source": runtime.spec.source,
        "tags": list(runtime.spec.tags),
        "memory_rss_bytes": None,
        "cpu_percent": None,
        "linux_state": None,
        "docker": None,
    }
    if runtime.health is not None:
        out["health"] = runtime.health.summary()
    if runtime.spec.ready_log_line is not None:
        out["log_ready"] = runtime.log_ready
    if alive and runtime.proc is not None:
        tree = procfs.tree(pid) if pid is not None else []
        out.update(runtime.proc.details(tree[0] if tree else None))
        if tree:
            out["memory_rss_bytes"] = sum(p.rss_bytes for p in tree)
            cpu = sum(p.cpu_seconds for p in tree)
            out["cpu_percent"] = meter.percent(
                runtime.name, pid, cpu, now, runtime.started_at or now
            )
    return out


def supervisor_status(sup: Supervisor) -> dict[str, Any]:
    """The supervisor itself: pid, version, uptime, project, config, socket."""
    return {
        "running": True,
        "pid": os.getpid(),
        "version": __version__,
        "started_at": iso(sup.started_at),
        "uptime_seconds": round(time.time() - sup.started_at, 3),
        "project_root": sup.root,
        "config": str(sup.config_path),
        "socket": project.socket_path(sup.root),
        "processes": len(sup.runtimes),
    }
