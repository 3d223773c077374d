"""Runs a dead supervisor left behind: found at boot, waited for before their process starts.

After a `kill -9` of the supervisor its sentinel stops each run as `stop` would (its
stop_signal, its stop_timeout, then SIGKILL). It lets go of the project lock as it begins,
so a new supervisor answers meanwhile; but it never starts a process while a run of that
process from the old supervisor still exists (a database started again while its old
postmaster shuts down fails on its lock file, or recovers from a crash). It waits for the
run to end, bounded by the stop_timeout the sentinel gives it plus the time a SIGKILL
takes, and `status` says so (`previous_run`, `why`). Past that bound (a sentinel that died
too) it SIGKILLs what is left itself.

A run's processes are its process group (the leader's pid, recorded in state.db) and
every process carrying the project's and the process's names in its environment
(`PROCLER_PROJECT_ROOT`, `PROCLER_PROCESS_NAME`: descendants that left the group). Our own
descendants are never counted.
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Iterable
from typing import Any

from procler.contexts import procfs
from procler.contexts.base import KILL_WAIT
from procler.contexts.local import exits
from procler.supervisor.clock import Clock, iso

LOOK_AGAIN = 0.5  # seconds: a run's processes are looked for again (one may have forked)


def _others() -> set[int]:
    """Ourselves and our descendants: never a previous supervisor's run."""
    me = os.getpid()
    return {me, *(st.pid for st in procfs.tree(me))}


def _named(root: str, names: set[str]) -> dict[str, list[int]]:
    """Live processes carrying this project's root and one of names, by name."""
    project = f"PROCLER_PROJECT_ROOT={root}".encode()
    found: dict[str, list[int]] = {}
    exclude = _others()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in exclude:
            continue
        env = procfs.read_small(f"/proc/{entry}/environ")
        if not env or project not in env:
            continue
        items = env.split(b"\0")
        if project not in items:
            continue
        for item in items:
            if item.startswith(b"PROCLER_PROCESS_NAME="):
                name = item[len(b"PROCLER_PROCESS_NAME=") :].decode(errors="replace")
                if name in names:
                    found.setdefault(name, []).append(int(entry))
                break
    return found


class PreviousRun:
    """The processes of one process's run from a dead supervisor, still alive."""

    def __init__(
        self,
        root: str,
        name: str,
        pgid: int | None,
        pids: list[int],
        stop_signal: str,
        stop_timeout: float,
        clock: Clock,
    ) -> None:
        self.root, self.name, self.pgid, self.pids = root, name, pgid, pids
        self.stop_signal, self.stop_timeout = stop_signal, stop_timeout
        self.clock = clock
        self.since = clock.time()
        # The sentinel SIGKILLs it after stop_timeout; then it has KILL_WAIT to be gone.
        self.kill_at = clock.monotonic() + stop_timeout + KILL_WAIT
        self.ended: bool | None = None  # None while waited for
        self._waited: asyncio.Task[bool] | None = None

    def alive(self) -> list[int]:
        """Its processes still alive (zombies hold nothing: not counted)."""
        found = set(_named(self.root, {self.name}).get(self.name, []))
        if self.pgid is not None:
            mine = _others()
            found.update(pid for pid in procfs.group_members(self.pgid) if pid not in mine)
        self.pids = sorted(found)
        return self.pids

    def describe(self) -> dict[str, Any]:
        return {
            "pids": list(self.pids),
            "since": iso(self.since),
            "stop_signal": _signal_name(self.stop_signal),
            "stop_timeout": self.stop_timeout,
            "ended": self.ended,
        }

    def why(self) -> str:
        pids = ", ".join(map(str, self.pids))
        if self.ended is False:
            return (
                f"its run from the previous supervisor (pid {pids}) did not end, even "
                f"after SIGKILL: no run of it was started"
            )
        return (
            f"its run from the previous supervisor (pid {pids}) is still ending: the "
            f"sentinel stops it with {_signal_name(self.stop_signal)} and SIGKILLs it after "
            f"{self.stop_timeout:g}s; no run of it starts before"
        )

    def watch(self) -> None:
        """Begin waiting for its end (status shows the run until then)."""
        if self._waited is None:
            self._waited = asyncio.ensure_future(self._outlast())

    async def outlast(self) -> bool:
        """Wait until the run has ended (True), SIGKILLing it ourselves past the sentinel's
        bound; False if it is still there KILL_WAIT after that."""
        self.watch()
        assert self._waited is not None
        return await asyncio.shield(self._waited)

    def cancel(self) -> None:
        if self._waited is not None:
            self._waited.cancel()

    async def _outlast(self) -> bool:
        killed = False
        while left := self.alive():
            now = self.clock.monotonic()
            if now >= self.kill_at:
                if killed:
                    self.ended = False
                    return False
                procfs.signal_pids(left, signal.SIGKILL)
                killed, self.kill_at = True, now + KILL_WAIT
                continue
            await exits(left, min(self.kill_at - now, LOOK_AGAIN))
        self.ended = True
        return True


def find_previous(
    root: str,
    lost: Iterable[tuple[str, int | None]],
    stops: dict[str, tuple[str, float]],
    clock: Clock,
) -> dict[str, PreviousRun]:
    """The lost runs (name, leader pid) of local processes (stops: name -> (stop_signal,
    stop_timeout)) that still have live processes."""
    lost = [(name, pid) for name, pid in lost if name in stops]
    if not lost:
        return {}
    named = _named(root, {name for name, _ in lost})
    mine = _others()
    stats = procfs.all_stats()
    out: dict[str, PreviousRun] = {}
    for name, pgid in lost:
        pids = set(named.get(name, []))
        if pgid is not None:
            pids.update(
                st.pid
                for st in stats.values()
                if st.pgrp == pgid and st.state != "Z" and st.pid not in mine
            )
        if pids:
            signal_name, timeout = stops[name]
            out[name] = PreviousRun(root, name, pgid, sorted(pids), signal_name, timeout, clock)
    return out


def _signal_name(name: str) -> str:
    return name if name.startswith("SIG") or name.isdigit() else f"SIG{name}"
