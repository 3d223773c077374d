"""A tiny watchdog that outlives the supervisor long enough to leave no orphan behind.

The supervisor writes `+RUN_ID [PGID]` / `-RUN_ID` lines to our stdin as it starts and
reaps runs (a command exec'd in a container has no group of ours), and `=RUN_ID JSON`
for a run stopped by a command (`stop_command`: its command, cwd, environment and
timeout). When stdin reaches EOF the supervisor is gone (clean exit or kill -9): we run
the stop commands, all at once, and give them and their runs at most STOP_COMMANDS_WITHIN
to end; then we TERM then KILL every recorded group, then every process whose
environment carries one of those runs' PROCLER_RUN_ID (descendants that left their
group). Only runs we were told of: never the runs of a newer supervisor.

We inherit the supervisor's single-instance lock (the same open file), so a new
supervisor cannot take it, and restore anything, before this sweep has ended.
Run as: python -m procler.supervisor.sentinel PROJECT_ROOT (the root only names the
project in `ps`; what to sweep comes from stdin). Imports only the stdlib and
procler.contexts.procfs (itself stdlib only), so it starts fast.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from typing import Any

from procler.contexts import procfs

GRACE = 1.0  # seconds between TERM and KILL
# Bound on the stop commands and the ends they bring: with GRACE, within the 8 s a new
# supervisor waits for this sweep.
STOP_COMMANDS_WITHIN = 5.0


def _any_alive(pgids: set[int]) -> bool:
    """A group still has a live member (zombies do not count: with the supervisor gone,
    nobody may reap them soon, and they hold nothing)."""
    return any(st.pgrp in pgids and st.state != "Z" for st in procfs.all_stats().values())


def _signal_groups(pgids: set[int], signum: int) -> None:
    for pgid in pgids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signum)


def run_stop_commands(runs: dict[str, int | None], stops: dict[str, dict[str, Any]]) -> None:
    """Each run's stop command where it ran, all at once; wait (each within its timeout,
    all within STOP_COMMANDS_WITHIN) until they ended and so did their runs' groups.
    Commands still running then are killed with their groups."""
    started = time.monotonic()
    commands: list[tuple[subprocess.Popen[bytes], float]] = []
    for run_id, stop in stops.items():
        if run_id not in runs:
            continue
        with contextlib.suppress(OSError, ValueError, TypeError, KeyError):
            proc = subprocess.Popen(
                ["/bin/sh", "-c", stop["command"]],
                cwd=stop["cwd"],
                env=stop["env"],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
            bound = min(float(stop["timeout"]), STOP_COMMANDS_WITHIN)
            commands.append((proc, started + bound))
    if not commands:
        return
    pgids = {pgid for run_id in stops if (pgid := runs.get(run_id)) is not None}
    deadline = max(until for _, until in commands)
    while time.monotonic() < deadline:
        for proc, until in commands:
            if proc.poll() is None and time.monotonic() >= until:
                _signal_groups({proc.pid}, signal.SIGKILL)
        if all(proc.poll() is not None for proc, _ in commands) and not _any_alive(pgids):
            break
        time.sleep(0.05)
    for proc, _ in commands:
        if proc.poll() is None:
            _signal_groups({proc.pid}, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(1.0)


def cleanup(runs: dict[str, int | None], stops: dict[str, dict[str, Any]] | None = None) -> None:
    """Run the stop commands (bounded), then TERM the groups, wait up to GRACE, KILL what
    is left and every process of the runs."""
    run_stop_commands(runs, stops or {})
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
    stops: dict[str, dict[str, Any]] = {}
    for line in sys.stdin.buffer:
        text = line.strip().decode()
        if text[:1] == "+":
            run_id, _, pgid = text[1:].partition(" ")
            runs[run_id] = int(pgid) if pgid else None
        elif text[:1] == "=":
            run_id, _, stop = text[1:].partition(" ")
            with contextlib.suppress(ValueError):
                stops[run_id] = json.loads(stop)
        elif text[:1] == "-":
            runs.pop(text[1:], None)
            stops.pop(text[1:], None)
    cleanup(runs, stops)


if __name__ == "__main__":
    main()
