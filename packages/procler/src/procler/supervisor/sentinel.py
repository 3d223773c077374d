"""A tiny watchdog that outlives the supervisor long enough to leave no orphan behind.

The supervisor writes `+RUN_ID [PGID|- [SIGNAL TIMEOUT]]` / `-RUN_ID` lines to our stdin as
it starts and reaps runs (a command exec'd in a container has no group of ours), and
`=RUN_ID JSON` for a run stopped by a command (`stop_command`: its command, cwd,
environment and timeout). When stdin reaches EOF the supervisor is gone (clean exit or
kill -9): we stop every recorded run as `procler stop` would. First the stop commands of
the runs that have one, all at once, each where its run ran, the commands and their runs
given the command's timeout, all within STOP_COMMANDS_WITHIN; then, for what is still
there, its stop signal to its group and to the processes carrying its PROCLER_RUN_ID
(descendants that left the group), its stop timeout, then SIGKILL for what is left, and
we wait (bounded) until the killed are gone. Only runs we were told of: never the runs of
a newer supervisor.

We inherit the supervisor's single-instance lock (the same open file), which keeps a new
supervisor out while ours lives. At EOF we let go of it before the sweep: a database
given its stop_timeout may take many seconds to stop, and a new supervisor then answers
meanwhile, waiting itself (bounded) before it starts a process whose old run is still
here (supervisor/previous_runs.py), and saying so in `status`.
Run as: python -m procler.supervisor.sentinel PROJECT_ROOT [LOCK_FD] (the root only names
the project in `ps`; what to sweep comes from stdin). Imports only the stdlib and
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
from dataclasses import dataclass, field
from typing import Any

from procler.contexts import procfs

UNSPECIFIED_GRACE = 1.0  # seconds between TERM and KILL for a run told without its stop
KILL_WAIT = 5.0  # bound on waiting for the SIGKILLed to be gone
POLL = 0.05  # seconds between looks at what is left
RESCAN = 0.5  # seconds between looks for the processes carrying a run's id
# Bound on the stop commands' phase (each command and the end it brings): a sweep lasts
# at most this, plus the longest stop_timeout, plus KILL_WAIT (see stop_bound).
STOP_COMMANDS_WITHIN = 5.0


def stop_bound(stop_timeout: float, command_timeout: float | None) -> float:
    """How long the sweep may take before it SIGKILLs a run: its stop command's phase
    (when it has one), then its stop_timeout."""
    if command_timeout is None:
        return stop_timeout
    return min(command_timeout, STOP_COMMANDS_WITHIN) + stop_timeout


@dataclass
class Run:
    """A run as the supervisor told us of it."""

    run_id: str
    pgid: int | None = None
    signum: int = signal.SIGTERM
    timeout: float = UNSPECIFIED_GRACE
    marked: set[int] = field(default_factory=set)  # pids carrying its PROCLER_RUN_ID
    killed: bool = False
    stop: dict[str, Any] | None = None  # its stop_command: command, cwd, env, timeout

    @classmethod
    def parse(cls, told: str) -> Run:
        """`RUN_ID [PGID|- [SIGNAL TIMEOUT]]`."""
        parts = told.split()
        run = cls(parts[0])
        if len(parts) > 1 and parts[1] != "-":
            run.pgid = int(parts[1])
        if len(parts) > 3:
            run.signum, run.timeout = int(parts[2]), float(parts[3])
        return run

    def alive(self, stats: dict[int, procfs.ProcStat]) -> list[int]:
        """Its live processes: its group's members and those carrying its id."""
        return sorted(
            pid
            for pid, st in stats.items()
            if st.state != "Z"
            and ((self.pgid is not None and st.pgrp == self.pgid) or pid in self.marked)
        )

    def signal(self, signum: int, alive: list[int], stats: dict[int, procfs.ProcStat]) -> None:
        """signum to its group (only while the group has members: its id may be reused
        once it is empty) and to its processes outside the group."""
        if self.pgid is not None and any(stats[pid].pgrp == self.pgid for pid in alive):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pgid, signum)
        procfs.signal_pids([pid for pid in alive if stats[pid].pgrp != self.pgid], signum)


def _mark(runs: list[Run]) -> None:
    """Find the processes carrying each run's PROCLER_RUN_ID (one read of every environ)."""
    by_marker = {f"PROCLER_RUN_ID={run.run_id}".encode(): run for run in runs}
    if not by_marker:
        return
    me = os.getpid()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        env = procfs.read_small(f"/proc/{entry}/environ")
        if not env:
            continue
        for item in env.split(b"\0"):
            run = by_marker.get(item)
            if run is not None:
                run.marked.add(int(entry))
                break


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def run_stop_commands(runs: list[Run]) -> None:
    """Each live run's stop command where it ran, all at once; wait (each within its
    timeout, all within STOP_COMMANDS_WITHIN) until the commands ended and so did their
    runs. Commands still running then are killed with their groups."""
    started = time.monotonic()
    stats = procfs.all_stats()
    commands: list[tuple[subprocess.Popen[bytes], float]] = []
    stopped: list[Run] = []
    for run in runs:
        if run.stop is None or not run.alive(stats):
            continue
        with contextlib.suppress(OSError, ValueError, TypeError, KeyError):
            proc = subprocess.Popen(
                ["/bin/sh", "-c", run.stop["command"]],
                cwd=run.stop["cwd"],
                env=run.stop["env"],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
            bound = min(float(run.stop["timeout"]), STOP_COMMANDS_WITHIN)
            commands.append((proc, started + bound))
            stopped.append(run)
    if not commands:
        return
    deadline = max(until for _, until in commands)
    while time.monotonic() < deadline:
        for proc, until in commands:
            if proc.poll() is None and time.monotonic() >= until:
                _kill_group(proc.pid)
        stats = procfs.all_stats()
        if all(proc.poll() is not None for proc, _ in commands) and not any(
            run.alive(stats) for run in stopped
        ):
            break
        time.sleep(POLL)
    for proc, _ in commands:
        if proc.poll() is None:
            _kill_group(proc.pid)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(1.0)


def cleanup(runs: list[Run]) -> None:
    """Stop every run as `stop` would, all at once: its stop command (bounded), then its
    signal, its timeout, then SIGKILL; return once all are gone (or KILL_WAIT after the
    last SIGKILL)."""
    _mark(runs)
    run_stop_commands(runs)
    start = time.monotonic()
    stats = procfs.all_stats()
    pending = []
    for run in runs:
        alive = run.alive(stats)
        if alive:
            run.signal(run.signum, alive, stats)
            pending.append(run)
    last_scan = time.monotonic()
    end = start + max((r.timeout for r in pending), default=0.0) + KILL_WAIT
    while pending and time.monotonic() < end:
        time.sleep(POLL)
        now = time.monotonic()
        if now - last_scan >= RESCAN:  # one may have forked since
            _mark(pending)
            last_scan = now
        stats = procfs.all_stats()
        for run in list(pending):
            alive = run.alive(stats)
            if not alive:
                pending.remove(run)
            elif not run.killed and now - start >= run.timeout:
                run.signal(signal.SIGKILL, alive, stats)
                run.killed = True


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # only EOF on stdin ends us
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    lock_fd = int(sys.argv[2]) if len(sys.argv) > 2 else None
    runs: dict[str, Run] = {}
    for line in sys.stdin.buffer:
        text = line.strip().decode()
        if text[:1] == "+":
            run = Run.parse(text[1:])
            runs[run.run_id] = run
        elif text[:1] == "=":
            run_id, _, stop = text[1:].partition(" ")
            if run_id in runs:
                with contextlib.suppress(ValueError):
                    runs[run_id].stop = json.loads(stop)
        elif text[:1] == "-":
            runs.pop(text[1:], None)
    if lock_fd is not None:
        with contextlib.suppress(OSError):
            os.close(lock_fd)  # see the module's docstring
    cleanup(list(runs.values()))


if __name__ == "__main__":
    main()
