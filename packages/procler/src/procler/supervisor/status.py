"""The `status` answer of one process: the same keys whatever context runs it."""

from __future__ import annotations

from typing import Any

from procler.contexts import procfs
from procler.supervisor.clock import iso
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


def process_status(
    rt: ProcessRuntime, meter: CpuMeter, now: float, down: tuple[str, str] | None = None
) -> dict[str, Any]:
    """Everything an agent needs about one process, from the runtime and /proc.

    `down` is (dependency, why) when a dependency of a process that runs (or should)
    died or was stopped."""
    alive = rt.proc is not None and rt.status in (
        "starting",
        "running",
        "healthy",
        "unhealthy",
        "stopping",
    )
    pid = rt.proc.pid if alive and rt.proc is not None else None
    shell = rt.spec.keeps_shell and rt.spec.context == "local"
    if shell and pid is not None:
        # The shell leads the group; what the user thinks of as the process is its child.
        pid = next(iter(procfs.children(pid)), pid)
    out: dict[str, Any] = {
        "name": rt.name,
        "status": rt.status,
        "context": rt.spec.context,
        "pid": pid,
        "shell": shell,
        "started_at": iso(rt.started_at) if alive else None,
        "uptime_seconds": round(now - rt.started_at, 3) if alive and rt.started_at else None,
        "run": rt.run,
        "restarts": rt.restarts,
        "exit_code": (rt.last_exit or {}).get("code"),
        "last_exit": rt.last_exit,
        "desired": rt.desired,
        "dependency_down": down[0] if down else None,
        "why": down[1] if down else None,
        "source": rt.spec.source,
        "memory_rss_bytes": None,
        "cpu_percent": None,
        "linux_state": None,
        "docker": None,
    }
    if rt.health is not None:
        out["health"] = rt.health.summary()
    if alive and rt.proc is not None:
        leader = rt.proc.pid
        tree = procfs.tree(leader) if leader is not None else []
        main = next((p for p in tree if p.pid == pid), None)
        out.update(rt.proc.details(main))
        if tree:
            out["memory_rss_bytes"] = sum(p.rss_bytes for p in tree)
            cpu = sum(p.cpu_seconds for p in tree)
            out["cpu_percent"] = meter.percent(rt.name, leader, cpu, now, rt.started_at or now)
    return out
