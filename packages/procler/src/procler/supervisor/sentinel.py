"""A tiny watchdog that outlives the supervisor long enough to leave no orphan behind.

The supervisor writes `+RUN_ID [PGID]` / `-RUN_ID` lines to our stdin as it starts and
reaps runs (a command exec'd in a container has no group of ours). When stdin reaches EOF the supervisor is gone (clean exit or kill -9): we TERM then
KILL every recorded group, then every process whose environment carries one of those
runs' PROCLER_RUN_ID (descendants that left their group). Only runs we were told of:
never the runs of a newer supervisor.

We inherit the supervisor's single-instance lock (the same open file), so a new
supervisor cannot take it, and restore anything, before this sweep has ended.
Run as: python -m procler.supervisor.sentinel PROJECT_ROOT (the root only names the
project in `ps`; what to sweep comes from stdin). Imports only the stdlib and
procler.contexts.procfs (itself stdlib only), so it starts fast.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time

from procler.contexts import procfs

GRACE = 1.0  # seconds between TERM and KILL


def _any_alive(pgids: set[int]) -> bool:
    """A group still has a live member (zombies do not count: with the supervisor gone,
    nobody may reap them soon, and they hold nothing)."""
    return any(st.pgrp in pgids and st.state != "Z" for st in procfs.all_stats().values())


def _signal_groups(pgids: set[int], signum: int) -> None:
    for pgid in pgids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signum)


def cleanup(runs: dict[str, int | None]) -> None:
    """TERM the groups, wait up to GRACE, KILL what is left and every process of the runs."""
    pgids = {pgid for pgid in runs.values() if pgid is not None}
    _signal_groups(pgids, signal.SIGTERM)
    deadline = time.monotonic() + GRACE
    while time.monotonic() < deadline and _any_alive(pgids):
        time.sleep(0.05)
    _signal_groups(pgids, signal.SIGKILL)
    markers = {f"PROCLER_RUN_ID={run_id}".encode() for run_id in runs}
    if markers:
        procfs.signal_pids(procfs.pids_with_any_env(markers, {os.getpid()}), signal.SIGKILL)


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # only EOF on stdin ends us
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    runs: dict[str, int | None] = {}
    for line in sys.stdin.buffer:
        text = line.strip().decode()
        if text[:1] == "+":
            run_id, _, pgid = text[1:].partition(" ")
            runs[run_id] = int(pgid) if pgid else None
        elif text[:1] == "-":
            runs.pop(text[1:], None)
    cleanup(runs)


if __name__ == "__main__":
    main()
