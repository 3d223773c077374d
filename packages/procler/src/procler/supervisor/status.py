"""The `status` answer of one process: the same keys whatever context runs it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from procler.config.model import ProcessSpec
from procler.contexts import procfs
from procler.supervisor.clock import iso

if TYPE_CHECKING:
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
    spec: ProcessSpec,
    status: str,
    saved: Mapping[str, Any],
) -> dict[str, Any]:
    """The status of a process with no live run, from what is saved about it (desired,
    runs, restarts, last_exit): also the answer from disk when no supervisor runs."""
    last_exit = saved["last_exit"]
    return {
        "name": spec.name,
        "status": status,
        "context": spec.context,
        "pid": None,
        "started_at": None,
        "uptime_seconds": None,
        "run": saved["runs"],
        "restarts": saved["restarts"],
        "exit_code": (last_exit or {}).get("code"),
        "last_exit": last_exit,
        "desired": saved["desired"],
        "source": spec.source,
        "memory_rss_bytes": None,
        "cpu_percent": None,
        "linux_state": None,
        "docker": None,
    }


def process_status(rt: ProcessRuntime, meter: CpuMeter, now: float) -> dict[str, Any]:
    """Everything an agent needs about one process, from the runtime and /proc."""
    alive = rt.proc is not None and rt.status in (
        "starting",
        "running",
        "healthy",
        "unhealthy",
        "stopping",
    )
    saved = {
        "desired": rt.desired,
        "runs": rt.run,
        "restarts": rt.restarts,
        "last_exit": rt.last_exit,
    }
    out = resting_status(rt.spec, rt.status, saved)
    if rt.health is not None:
        out["health"] = rt.health.summary()
    if alive and rt.proc is not None:
        pid = rt.proc.pid
        out["pid"] = pid
        out["started_at"] = iso(rt.started_at)
        out["uptime_seconds"] = round(now - rt.started_at, 3) if rt.started_at else None
        tree = procfs.tree(pid) if pid is not None else []
        out.update(rt.proc.details(tree[0] if tree else None))
        if tree:
            out["memory_rss_bytes"] = sum(p.rss_bytes for p in tree)
            cpu = sum(p.cpu_seconds for p in tree)
            out["cpu_percent"] = meter.percent(rt.name, pid, cpu, now, rt.started_at or now)
    return out
