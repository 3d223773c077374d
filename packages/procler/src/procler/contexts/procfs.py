"""Reading /proc: process state, process trees, memory and CPU, environment markers."""

from __future__ import annotations

import contextlib
import functools
import os
import signal
from dataclasses import dataclass
from typing import Any

STATE_NAMES = {
    "R": "running",
    "S": "sleeping",
    "D": "disk sleep",
    "Z": "zombie",
    "T": "stopped",
    "t": "tracing stop",
    "X": "dead",
    "I": "idle",
    "P": "parked",
    "W": "paging",
}
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


@dataclass(frozen=True)
class ProcStat:
    pid: int
    state: str
    pgrp: int
    cpu_seconds: float  # utime + stime
    rss_bytes: int
    threads: int


def read_small(path: str) -> bytes | None:
    """A whole /proc file, or None if it is gone; os-level reads (status reads many of these,
    and open() builds a buffered file object for each)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        chunks = []
        while data := os.read(fd, 65536):
            chunks.append(data)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def read_stat(pid: int) -> ProcStat | None:
    """Parse /proc/PID/stat; the command name may hold spaces and ')', so split after the last ')'."""
    data = read_small(f"/proc/{pid}/stat")
    if data is None:
        return None
    raw = data.decode("utf-8", "replace")
    fields = raw[raw.rindex(")") + 2 :].split()
    # fields[0] is field 3 (state); utime/stime are fields 14/15; rss (pages) is field 24.
    return ProcStat(
        pid=pid,
        state=fields[0],
        pgrp=int(fields[2]),
        cpu_seconds=(int(fields[11]) + int(fields[12])) / CLOCK_TICKS,
        rss_bytes=int(fields[21]) * PAGE_SIZE,
        threads=int(fields[17]),
    )


def linux_state(stat: ProcStat | None) -> dict[str, object] | None:
    """The `linux_state` block of status: D (uninterruptible) and Z (zombie) cannot be killed."""
    if stat is None:
        return None
    return {
        "state_code": stat.state,
        "state_name": STATE_NAMES.get(stat.state, "unknown"),
        "is_killable": stat.state not in ("D", "Z"),
    }


def command_line(pid: int) -> str:
    """The process's argv joined by spaces ('' when it is gone or a kernel thread)."""
    data = read_small(f"/proc/{pid}/cmdline")
    return (
        "" if data is None else data.rstrip(b"\0").replace(b"\0", b" ").decode("utf-8", "replace")
    )


def all_stats() -> dict[int, ProcStat]:
    """A snapshot of every process on the machine."""
    out: dict[int, ProcStat] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = read_stat(int(entry))
            if stat is not None:
                out[stat.pid] = stat
    return out


def tree(root: int) -> list[ProcStat]:
    """root and its descendants, walked through /proc/PID/task/TID/children.

    Cheaper than a snapshot of every process on the machine, which status would
    otherwise pay on every call.
    """
    seen: dict[int, ProcStat] = {}
    stack = [root]
    while stack:
        pid = stack.pop()
        if pid in seen:
            continue
        stat = read_stat(pid)
        if stat is None:
            continue
        seen[pid] = stat
        stack.extend(children(pid, stat.threads))
    return list(seen.values())


def children(pid: int, threads: int = 0) -> list[int]:
    """Direct children of pid, over all its threads (one file read when single-threaded)."""
    out: list[int] = []
    try:
        tids = [str(pid)] if threads == 1 else os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        data = read_small(f"/proc/{pid}/task/{tid}/children")
        if data:
            out.extend(map(int, data.split()))
    return out


def pids_with_env(
    marker: bytes, exclude: set[int], among: list[ProcStat] | None = None
) -> list[int]:
    """Pids whose environment holds the exact entry `marker` (e.g. b"KEY=value").

    Descendants inherit the environment, so this finds processes that left their
    process group (daemonized) as well. `among` limits the look to those processes
    (see `own_descendants`); None looks at every process on the machine.
    """
    return pids_with_any_env({marker}, exclude, among)


def pids_with_any_env(
    markers: set[bytes], exclude: set[int], among: list[ProcStat] | None = None
) -> list[int]:
    """Pids (not zombies: their environment reads empty) holding one of the exact entries."""
    pids = (
        (int(e) for e in os.listdir("/proc") if e.isdigit())
        if among is None
        else (st.pid for st in among)
    )
    found = []
    for pid in pids:
        if pid in exclude:
            continue
        env = read_small(f"/proc/{pid}/environ")
        if env and not markers.isdisjoint(env.split(b"\0")):
            found.append(pid)
    return found


def group_members(pgid: int, among: list[ProcStat] | None = None) -> list[int]:
    """Live (not zombie) processes of process group pgid, among those given or all."""
    stats = all_stats().values() if among is None else among
    return [st.pid for st in stats if st.pgrp == pgid and st.state != "Z"]


PR_SET_CHILD_SUBREAPER, PR_GET_CHILD_SUBREAPER = 36, 37


@functools.cache
def _prctl() -> Any:
    """libc's prctl, looked up once: a dlopen per call cost 0.1 ms, and every stop asks
    is_child_subreaper twice."""
    import ctypes

    return ctypes.CDLL(None, use_errno=True).prctl


def become_child_subreaper() -> None:
    """Orphans of our processes get reparented to us (not to PID 1, which may never reap
    them in a container), so that we can reap their zombies."""
    _prctl()(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def is_child_subreaper() -> bool:
    """Whether orphans of our descendants are reparented to us (PR_SET_CHILD_SUBREAPER)."""
    import ctypes

    flag = ctypes.c_int(0)
    return _prctl()(PR_GET_CHILD_SUBREAPER, ctypes.byref(flag), 0, 0, 0) == 0 and bool(flag.value)


def own_descendants() -> list[ProcStat] | None:
    """Every process below us when we are a child subreaper, else None.

    A subreaper keeps every process it started below it, even those that daemonized
    (their orphans are reparented to it), so a look at its own tree (a few files)
    replaces a scan of every process on the machine (tens of milliseconds on a busy one).
    """
    if not is_child_subreaper():
        return None
    me = os.getpid()
    return [st for st in tree(me) if st.pid != me]


def signal_pids(pids: list[int], signum: int) -> int:
    """Send signum to each pid that still exists; return how many got it."""
    sent = 0
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signum)
            sent += 1
    return sent


def kill_with_env(marker: bytes, exclude: set[int] | None = None) -> int:
    """SIGKILL every process (but us and exclude) whose environment holds marker; how many."""
    return signal_pids(pids_with_env(marker, {os.getpid(), *(exclude or ())}), signal.SIGKILL)
