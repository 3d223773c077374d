"""The ExecutionContext interface shared by every place a process can run."""

from __future__ import annotations

import abc
import asyncio
import signal
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from typing import Any

from procler.config.model import ProcessSpec

KILL_WAIT = 5.0  # bound on waiting for a SIGKILLed run to be reported ended


def signal_number(name: str) -> int:
    """'TERM', 'SIGTERM' or '15' -> 15."""
    if name.isdigit():
        return int(name)
    return int(getattr(signal, name if name.startswith("SIG") else f"SIG{name}"))


@dataclass(frozen=True)
class ExitInfo:
    """How a run ended: an exit code, or the signal that killed it."""

    code: int | None
    signal: int | None = None


@dataclass(frozen=True)
class OutputLine:
    """One line of a process's output as read from the context, before storage."""

    stream: str  # "stdout" | "stderr"
    text: str
    ts: float | None = None  # when the context knows it (docker logs); else capture time


@dataclass(frozen=True)
class OutputBatch:
    """Consecutive lines of one stream read at once (the fast path of local capture)."""

    stream: str
    texts: list[str]
    ts: float
    partial: bool = False  # a single chunk of a long line, more chunks follow


class RunningProcess(abc.ABC):
    """One run of a process in some context."""

    # When the run began, if the context knows better than "when we started following it"
    # (a container re-adopted by a new supervisor keeps its own start time).
    started_at: float | None = None
    # Carried in the environment of every process of the run (PROCLER_RUN_ID), when the
    # context sets one: how a run's processes are found after they left its group.
    run_id: str | None = None

    @property
    @abc.abstractmethod
    def pid(self) -> int | None:
        """The host pid of the main process, when the context has one."""

    @abc.abstractmethod
    async def wait(self) -> ExitInfo:
        """Wait until the run ends by itself or is stopped; return how it ended."""

    @abc.abstractmethod
    def output(self) -> AsyncIterator[OutputLine | OutputBatch]:
        """Lines (or batches of lines) of stdout and stderr, until the run's output ends."""

    @abc.abstractmethod
    def details(self, stat: Any = None) -> dict[str, Any]:
        """Context-specific status fields (e.g. `linux_state` or `docker`).

        `stat` is the main process's procfs.ProcStat when the caller already read it.
        """

    async def send(self, data: bytes, timeout: float) -> int:
        """Write data to the run's stdin (a pipe kept open with `stdin: true`), within
        timeout; the bytes written. A context without one: STDIN_CLOSED."""
        from procler.errors import StdinClosed

        raise StdinClosed("this run's stdin is not kept open")

    def stop_reading(self) -> None:  # noqa: B027 - a hook: most runs hold nothing to release
        """The run ended but its output did not within the drain bound (something it left
        holds the stream): release what reads it, so no reader or socket outlives the run."""


class ExecutionContext(abc.ABC):
    """Starts, signals and stops processes in one kind of place."""

    @abc.abstractmethod
    async def start(self, spec: ProcessSpec, env: Mapping[str, str], run: int) -> RunningProcess:
        """Start one run of spec with this environment; raise a typed AgentError on failure."""

    @abc.abstractmethod
    async def signal(self, proc: RunningProcess, signum: int) -> None:
        """Send a signal to the whole run (its process group, or the container's process)."""

    @abc.abstractmethod
    async def stop(self, proc: RunningProcess, signum: int, timeout: float) -> ExitInfo:
        """Signal, wait up to timeout, then kill; return how the run ended."""

    async def kill_now(self, proc: RunningProcess) -> None:
        """SIGKILL the whole run now (a stop waiting on it then ends at once)."""
        await self.signal(proc, signal.SIGKILL)

    @abc.abstractmethod
    async def exec_probe(
        self, spec: ProcessSpec, command: str, env: Mapping[str, str], timeout: float
    ) -> tuple[bool, str]:
        """Run a health-check command where the process runs; (exit 0, short output)."""

    async def escalate(self, proc: RunningProcess, signum: int, timeout: float) -> ExitInfo:
        """Send signum, wait up to timeout, then SIGKILL and wait up to KILL_WAIT.

        Raises TimeoutError when even SIGKILL is not seen to end the run.
        """
        await self.signal(proc, signum)
        try:
            return await asyncio.wait_for(proc.wait(), timeout)
        except TimeoutError:
            await self.signal(proc, signal.SIGKILL)
            return await asyncio.wait_for(proc.wait(), KILL_WAIT)

    async def reap_leftovers(self, proc: RunningProcess) -> int:
        """After the main process ended by itself: kill what it left running; return how many."""
        return 0

    async def follow_daemon(
        self, spec: ProcessSpec, launcher: RunningProcess
    ) -> RunningProcess | None:
        """daemon_mode: the daemon a launcher left behind, when this context can follow one."""
        return None

    async def adopt(self, spec: ProcessSpec) -> RunningProcess | None:
        """Find a run that outlived a previous supervisor (e.g. a labelled container)."""
        return None

    async def forget(self, spec: ProcessSpec) -> list[str]:
        """The process is no longer defined: drop what this context keeps for it (e.g. the
        containers it created); return what was dropped."""
        return []
