"""What /proc says about each process's tree: a sample, never shown older than a second.

Status is asked many times a second (REST clients, dashboards, agents polling): reading
two /proc files per process of every tree on each call cost ~4 ms of supervisor CPU for 50
processes. Like top, status shows a sample instead; a sample serves only the run and the
status it was taken in, so a transition or a new run reads /proc again at once.

A status call samples every process together; if each sample then served the same time,
one call a second would pay for every tree (40-90 µs a process here, by load: up to 90 ms
for 1000) and the callers queued behind it would wait: so each process's samples serve
their own time (`lifetime`), which spreads the reads over the calls.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any

from procler.contexts import procfs
from procler.contexts.base import RunningProcess

SAMPLE_EVERY = 1.0  # seconds: the oldest a sample status shows may be


def lifetime(name: str) -> float:
    """How long a sample of process `name` serves: from half of SAMPLE_EVERY to all of it,
    the same for a name every time (crc32, not hash(): no per-interpreter seed)."""
    return SAMPLE_EVERY * (0.5 + (zlib.crc32(name.encode()) % 512) / 1024)


@dataclass(frozen=True)
class Sample:
    """One read of a run's process tree at `at` (wall time, the clock seam's)."""

    proc: RunningProcess  # the run it describes (identity: a new run is a new object)
    leader: int  # the run's main pid (a shell's, when a shell leads the group)
    status: str  # the runtime's status when it was taken
    at: float
    until: float  # when it stops serving: at + lifetime(name)
    pid: int  # the program's pid: the leader, or a shell leader's first child
    # the context's fields of status (linux_state, a container's) from pid's /proc/PID/stat
    details: dict[str, Any]
    rss_bytes: int | None  # the whole tree's; None when the tree is gone
    cpu_seconds: float
    cpu_percent: float | None  # since the previous sample of this run (its start on the first)


class ProcessSampler:
    """The latest sample of each process (by name)."""

    def __init__(self) -> None:
        self._samples: dict[str, Sample] = {}

    def sample(
        self,
        name: str,
        proc: RunningProcess,
        leader: int,
        status: str,
        shell: bool,
        now: float,
        started: float,
    ) -> Sample:
        """The sample of run `proc` in `status`: the last one while it is younger than
        its lifetime, else a new read of /proc."""
        last = self._samples.get(name)
        if last is not None and (last.proc is not proc or last.leader != leader):
            last = None  # another run: nothing of the last one's carries over
        if last is not None and last.status == status and last.at <= now < last.until:
            return last
        tree = procfs.tree(leader)
        # A shell leads the group; what the user thinks of as the process is its child.
        pid = next(iter(procfs.children(leader)), leader) if shell else leader
        cpu = sum(p.cpu_seconds for p in tree)
        prev_cpu, prev_t = (last.cpu_seconds, last.at) if last is not None else (0.0, started)
        elapsed = now - prev_t
        percent = round(100.0 * max(0.0, cpu - prev_cpu) / elapsed, 1) if elapsed > 0 else 0.0
        stat = next((p for p in tree if p.pid == pid), None)
        fresh = Sample(
            proc=proc,
            leader=leader,
            status=status,
            at=now,
            until=now + lifetime(name),
            pid=pid,
            details=proc.details(stat),
            rss_bytes=sum(p.rss_bytes for p in tree) if tree else None,
            cpu_seconds=cpu,
            cpu_percent=percent if tree else None,
        )
        if not (shell and pid == leader):  # a shell's child may not be forked yet: look again
            self._samples[name] = fresh
        return fresh
