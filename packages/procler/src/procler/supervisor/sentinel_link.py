"""The supervisor's pipe to its sentinel (procler.supervisor.sentinel).

The sentinel is told which runs exist and how each stops (`+RUN_ID PGID SIGNAL TIMEOUT`,
`-RUN_ID`); when the pipe closes (the supervisor exited, or died even by kill -9) it stops
them as `procler stop` would. It shares the supervisor's lock (pass_fds) and lets go of it
when the pipe closes: a new supervisor waits for the runs themselves (previous_runs.py). Injected into the Supervisor, so the
supervisor's code can be tested in-process without spawning one.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from typing import Any, Protocol

from procler.contexts.base import RunningProcess

CLOSE_WAIT = 10.0  # bound on waiting for the sentinel's final sweep
ENDED_WITHIN = 0.05  # seconds: a run's end reaches the sentinel this soon (see tell)


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
            [
                sys.executable,
                "-m",
                "procler.supervisor.sentinel",
                root,
                *(() if lock_fd is None else (str(lock_fd),)),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            start_new_session=True,
            pass_fds=() if lock_fd is None else (lock_fd,),
        )
        self._pending: list[bytes] = []  # lines not written yet (see tell)
        self._flush_soon: asyncio.TimerHandle | None = None

    @property
    def pid(self) -> int | None:
        return self._proc.pid

    def tell(self, line: str) -> None:
        """A new run (`+`) at once, with the ends not told yet: a run the sentinel does not
        know would outlive a killed supervisor. An end (`-`) within ENDED_WITHIN, with the
        others of that moment: each write wakes the sentinel, which the kernel then often
        runs in the supervisor's place for a time slice (ms under load), and a stop is
        waited on; a run told late as ended is one the sweep finds gone anyway."""
        self._pending.append(line.encode() + b"\n")
        if not line.startswith("-"):  # a new run, or how to stop one
            self._flush()
        elif self._flush_soon is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # no loop: nothing would flush it later
                self._flush()
                return
            self._flush_soon = loop.call_later(ENDED_WITHIN, self._flush)

    def _flush(self) -> None:
        if self._flush_soon is not None:
            self._flush_soon.cancel()
            self._flush_soon = None
        assert self._proc.stdin is not None
        if self._pending:
            self._proc.stdin.write(b"".join(self._pending))
            self._proc.stdin.flush()
            self._pending = []

    async def close(self) -> None:
        """EOF: the sentinel sweeps (nothing is left after a clean stop) and exits."""
        assert self._proc.stdin is not None
        self._flush()
        self._proc.stdin.close()
        await asyncio.to_thread(self._proc.wait, CLOSE_WAIT)


def register(
    sentinel: Sentinel,
    proc: RunningProcess,
    local: bool,
    stop: tuple[int, float] | None = None,
    command: dict[str, Any] | None = None,
) -> None:
    """Tell the sentinel of a run (a local one with its process group; a command exec'd
    in a container has none of ours), how it stops: (signal, timeout), as `stop` would
    stop it, and the command that stops it first (`command`: its stop_command's command,
    cwd, env and timeout), which the sentinel runs if the supervisor dies."""
    if proc.run_id:
        group = str(proc.pid) if local and proc.pid is not None else "-"
        how = "" if stop is None else f" {stop[0]} {stop[1]:g}"
        sentinel.tell(f"+{proc.run_id} {group}{how}")
        if command is not None and local:
            sentinel.tell(f"={proc.run_id} {json.dumps(command, separators=(',', ':'))}")


def unregister(sentinel: Sentinel, proc: RunningProcess) -> None:
    if proc.run_id:
        sentinel.tell(f"-{proc.run_id}")
