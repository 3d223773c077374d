"""daemon_mode (Procler 0.3): a command that forks a daemon and exits. The daemon, found by its
pidfile or by a pattern on its command line, is the run Procler follows from then on, instead
of killing it as a leftover; `adopt_existing` follows one that is already running."""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import AsyncIterator
from typing import Any

from procler.config.model import DaemonSpec
from procler.contexts import procfs
from procler.contexts.base import ExitInfo, OutputBatch, OutputLine, RunningProcess

FIND_WAIT = 5.0  # bound on waiting for the daemon to write its pidfile (or show up)
FIND_EVERY = 0.05


class FollowedDaemon(RunningProcess):
    """A process that is not our child, followed by pid. Its exit is seen through a pidfd;
    its code is not ours to read (it is reaped by whoever is its parent now)."""

    def __init__(self, pid: int, run_id: str = "") -> None:
        self._pid = pid
        self.run_id = run_id  # empty for an adopted daemon: it was not started by this run
        loop = asyncio.get_running_loop()
        self._exited: asyncio.Future[ExitInfo] = loop.create_future()
        self._pidfd = os.pidfd_open(pid)
        loop.add_reader(self._pidfd, self._on_exit)

    def _on_exit(self) -> None:
        loop = asyncio.get_running_loop()
        loop.remove_reader(self._pidfd)
        os.close(self._pidfd)
        if not self._exited.done():
            self._exited.set_result(ExitInfo(None, None))

    @property
    def pid(self) -> int | None:
        return self._pid

    async def wait(self) -> ExitInfo:
        return await asyncio.shield(self._exited)

    async def output(self) -> AsyncIterator[OutputLine | OutputBatch]:
        nothing: tuple[OutputLine, ...] = ()  # a daemon left the pipes of its launcher
        for item in nothing:
            yield item

    def details(self, stat: Any = None) -> dict[str, Any]:
        return {
            "linux_state": procfs.linux_state(stat or procfs.read_stat(self._pid)),
            "daemon": True,
        }


def _alive(pid: int) -> bool:
    stat = procfs.read_stat(pid)
    return stat is not None and stat.state != "Z"


def find_daemon(spec: DaemonSpec) -> int | None:
    """The daemon's pid now: from its pidfile, else the oldest process whose command line
    matches the pattern (this supervisor excluded); None when there is none."""
    if spec.pidfile:
        try:
            with open(spec.pidfile, encoding="ascii") as handle:
                text = handle.read(32).strip()
        except (OSError, UnicodeDecodeError):
            text = ""
        if text.isdigit() and _alive(int(text)):
            return int(text)
        if not spec.match_pattern:
            return None
    if spec.match_pattern:
        pattern = re.compile(spec.match_pattern)
        me = os.getpid()
        for pid in sorted(procfs.all_stats()):
            if pid != me and _alive(pid) and pattern.search(procfs.command_line(pid)):
                return pid
    return None


async def await_daemon(spec: DaemonSpec) -> int | None:
    """Wait (bounded by FIND_WAIT) for the daemon to appear."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + FIND_WAIT
    while True:
        pid = find_daemon(spec)
        if pid is not None or loop.time() >= deadline:
            return pid
        await asyncio.sleep(FIND_EVERY)
