"""The supervisor's pipe to its sentinel (procler.supervisor.sentinel).

The sentinel is told which process groups exist; when the pipe closes (the supervisor
exited, or died even by kill -9) it sweeps them. Injected into the Supervisor, so the
supervisor's code can be tested in-process without spawning one.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from typing import Protocol

CLOSE_WAIT = 10.0  # bound on waiting for the sentinel's final sweep


class Sentinel(Protocol):
    """What the supervisor needs of its sentinel."""

    @property
    def pid(self) -> int | None: ...

    def tell(self, line: str) -> None: ...

    async def close(self) -> None: ...


class SentinelLink:
    """A running sentinel process and the pipe to its stdin."""

    def __init__(self, root: str) -> None:
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "procler.supervisor.sentinel", root],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            start_new_session=True,
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
