"""Reaping the zombies reparented to the supervisor (it is a child subreaper)."""

from __future__ import annotations

import contextlib
import os

from procler.contexts import procfs


def reap_orphans(own: set[int]) -> int:
    """Reap our zombie children except `own` (runs, probes, the sentinel: their owners
    reap them); return how many were reaped."""
    reaped = 0
    try:
        if os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None:
            return 0  # no zombie child at all (the common case): no walk of /proc
    except ChildProcessError:
        return 0  # no children
    for pid in procfs.children(os.getpid()):
        stat = procfs.read_stat(pid)
        if pid in own or stat is None or stat.state != "Z":
            continue
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
            reaped += 1
    return reaped
