"""The supervisor's pipe to its sentinel (procler.supervisor.sentinel).

The sentinel is told which runs exist (`+RUN_ID [PGID]`, `-RUN_ID`); when the pipe closes
(the supervisor exited, or died even by kill -9) it sweeps them. It shares the supervisor's
lock (pass_fds): the lock is free only once it has swept. Injected into the Supervisor, so the
supervisor's code can be tested in-process without spawning one.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from typing import Protocol

from procler.contexts.base import RunningProcess

CLOSE_WAIT = 10.0  # bound on waiting for the sentinel's final sweep


class Sentinel(Protocol):
    """What the supervisor needs of its sentinel."""

    @property
    def pid(self) -> int | None: ...

    def tell(self, line: str) -> None: ...

    async def close(self) -> None: ...


class SentinelLink:
    """A running sentinel process and the pipe to its stdin."""

    def __init__(self, root: str, lock_fd: int | None = None) -> None:
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "procler.supervisor.sentinel", root],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            start_new_session=True,
            pass_fds=() if lock_fd is None else (lock_fd,),
        )

    @property
    def pid(self) -> int | None:
        return self._proc.pid

    def tell(self, line: str) -> None:
        assert self._proc.stdin is not None
        self._proc.stdin.write(line.encode() + b"\n")
        self._proc.stdin.flush()

    async def close(self) -> None:
        """EOF: the sentinel sweeps (nothing is left after a clean stop) and exits."""
        assert self._proc.stdin is not None
        self._proc.stdin.close()
        await asyncio.to_thread(self._proc.wait, CLOSE_WAIT)


def register(sentinel: Sentinel, proc: RunningProcess, local: bool) -> None:
    """Tell the sentinel of a run (a local one with its process group; a command exec'd
    in a container has none of ours)."""
    if proc.run_id:
        group = f" {proc.pid}" if local and proc.pid is not None else ""
        sentinel.tell(f"+{proc.run_id}{group}")


def unregister(sentinel: Sentinel, proc: RunningProcess) -> None:
    if proc.run_id:
        sentinel.tell(f"-{proc.run_id}")
