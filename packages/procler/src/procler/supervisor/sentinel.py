"""A tiny watchdog that outlives the supervisor long enough to leave no orphan behind.

The supervisor writes `+PGID` / `-PGID` lines to our stdin as it starts and reaps
process groups. When stdin reaches EOF the supervisor is gone (clean exit or kill -9):
we TERM then KILL every recorded group, then every process whose environment carries
this project's PROCLER_PROJECT_ROOT (descendants that left their group).
Run as: python -m procler.supervisor.sentinel PROJECT_ROOT. Imports only the stdlib and
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


def _alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
        return True
    except (ProcessLookupError, PermissionError):
        return False


def _signal_groups(pgids: set[int], signum: int) -> None:
    for pgid in pgids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signum)


def cleanup(root: str, pgids: set[int]) -> None:
    """TERM the groups, wait up to GRACE, KILL what is left and every marked process."""
    _signal_groups(pgids, signal.SIGTERM)
    deadline = time.monotonic() + GRACE
    while time.monotonic() < deadline and any(_alive(p) for p in pgids):
        time.sleep(0.05)
    _signal_groups(pgids, signal.SIGKILL)
    procfs.kill_with_env(f"PROCLER_PROJECT_ROOT={root}".encode())


def main() -> None:
    root = sys.argv[1]
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # only EOF on stdin ends us
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    pgids: set[int] = set()
    for line in sys.stdin.buffer:
        text = line.strip().decode()
        if text[:1] == "+":
            pgids.add(int(text[1:]))
        elif text[:1] == "-":
            pgids.discard(int(text[1:]))
    cleanup(root, pgids)


if __name__ == "__main__":
    main()
