"""One run in a container: an exec'd command, a container Procler owns, or an existing one."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import re
from collections.abc import AsyncIterator, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from procler import states
from procler.config.model import ProcessSpec
from procler.contexts import procfs
from procler.contexts.base import ExitInfo, OutputLine, RunningProcess
from procler.contexts.container_kind import ContainerKind
from procler.contexts.container_stream import (
    LineSplitter,
    demuxed_lines,
    follow_in_thread,
    timestamped_lines,
)

Kind = Literal["exec", "image", "container"]
LABEL_PROJECT = "procler.project"
LABEL_PROCESS = "procler.process"
RUN_ID_KEY = "PROCLER_RUN_ID"  # marks every process of one exec'd run, as in LocalContext
OWNER_KEY = "PROCLER_DOCKER_EXEC"  # <root>:<name>: finds exec'd runs a dead supervisor left
# (its name from when Docker was the only engine: runs a supervisor left are still found)


def kind_of(spec: ProcessSpec) -> Kind:
    """image -> Procler owns a container; container + command -> exec; container alone."""
    settings = spec.container_spec
    if settings is not None and settings.image:
        return "image"
    if spec.command is not None or spec.args is not None:
        return "exec"
    return "container"


def command_of(spec: ProcessSpec) -> list[str] | None:
    """What to run in the container; None keeps the image's own command."""
    if spec.command is None and spec.args is None:
        return None
    return spec.argv()


def managed_name(root: str, name: str) -> str:
    """The name of the container Procler owns for this project's process."""
    digest = hashlib.sha1(root.encode()).hexdigest()[:8]
    return f"procler-{re.sub(r'[^A-Za-z0-9_.-]', '-', name)}-{digest}"


def binds(spec: ProcessSpec) -> list[str]:
    """`volumes` entries with relative host paths resolved against the process's cwd."""
    out = []
    for volume in spec.container_spec.volumes if spec.container_spec else ():
        host, sep, rest = volume.partition(":")
        if sep and (host.startswith(".") or "/" in host) and not os.path.isabs(host):
            host = os.path.normpath(os.path.join(spec.cwd, host))
        out.append(host + sep + rest)
    return out


def container_env(spec: ProcessSpec, env: Mapping[str, str], owned: bool = False) -> dict[str, str]:
    """The config's env and Procler's own variables; never the host's environment (PATH...).

    A container Procler owns must outlive a dead supervisor: it carries no PROCLER_RUN_ID
    (the sentinel kills host processes by their run's id) and gets the project root only
    as its `procler.project` label. Exec'd commands carry their run id: they die with us.
    """
    keep = {
        k: v
        for k, v in env.items()
        if k.startswith("PROCLER_") and not (owned and k == "PROCLER_PROJECT_ROOT")
    }
    return {**keep, **dict(spec.env)}


def normalised_status(state: Mapping[str, Any]) -> str:
    """An engine's container `State` onto our state machine: created is stopped, restarting is backoff."""
    status = str(state.get("Status", ""))
    if status in ("running", "paused"):
        return states.RUNNING
    if status == "restarting":
        return states.BACKOFF
    if status == "removing":
        return states.STOPPING
    if status == "dead":
        return states.FAILED
    if status == "exited":
        return states.EXITED if state.get("ExitCode") == 0 else states.FAILED
    return states.STOPPED  # created: never started


@dataclass(frozen=True)
class Target:
    """Which container a run lives in, as the engine names it."""

    kind: Kind
    container_id: str
    container: str  # its name, without the leading slash
    image: str


class ContainerRun(RunningProcess):
    """A run whose exit comes from the engine's events and whose output from its streams."""

    def __init__(
        self,
        target: Target,
        kind: ContainerKind,
        pid: int | None,
        exited: asyncio.Future[ExitInfo],
        exec_id: str | None = None,
        run_id: str | None = None,
    ) -> None:
        self.target = target
        self.kind = kind
        self._pid = pid or None
        self._exited = exited
        self.exec_id = exec_id
        self.run_id = run_id
        self._queue: asyncio.Queue[OutputLine | None] = asyncio.Queue()
        self._streams: list[Any] = []

    @property
    def pid(self) -> int | None:
        return self._pid

    def follow_exec(self, stream: Iterable[Any]) -> None:
        """Read a demuxed exec_start stream (no engine timestamps: capture time is used)."""
        splitters = self._splitters()
        self._follow(stream, lambda chunk: demuxed_lines(splitters, chunk), splitters)

    def follow_logs(self, stream: Iterable[Any]) -> None:
        """Read the merged `logs --follow --timestamps` frames of the container."""
        splitters = self._splitters()
        self._follow(stream, lambda frame: timestamped_lines(splitters, frame), splitters)

    @staticmethod
    def _splitters() -> dict[str, LineSplitter]:
        return {"stdout": LineSplitter(), "stderr": LineSplitter()}

    def _follow(
        self, stream: Iterable[Any], to_lines: Any, splitters: dict[str, LineSplitter]
    ) -> None:
        def finish() -> Iterable[OutputLine]:
            for name, splitter in splitters.items():
                yield from (OutputLine(name, text) for text in splitter.flush())

        self._streams.append(stream)
        follow_in_thread(stream, to_lines, finish, self._queue, self.target.container[:40])

    def stop_reading(self) -> None:
        """Close the engine's streams: a reader thread blocked on one (an exec whose process
        left a child holding its output, on an engine whose processes are not ours to
        kill) ends, and its connection is released."""
        for stream in self._streams:
            with contextlib.suppress(Exception):
                stream.close()

    async def wait(self) -> ExitInfo:
        return await asyncio.shield(self._exited)

    async def output(self) -> AsyncIterator[OutputLine]:
        open_streams = len(self._streams)
        while open_streams:
            item = await self._queue.get()
            if item is None:
                open_streams -= 1
            else:
                yield item

    def details(self, stat: Any = None) -> dict[str, Any]:
        return {
            "linux_state": None,  # only for local processes: the container's kernel view differs
            self.kind.status_field: {
                "kind": self.target.kind,
                "container_id": self.target.container_id,
                "container": self.target.container,
                "image": self.target.image,
                "exec_id": self.exec_id,
                "state": "exited" if self._exited.done() else "running",
            },
        }

    def kill_host_processes(self, signum: int) -> int:
        """Signal the exec'd process group and every process of this run; return how many
        processes carry the run's id.

        The engine runs on this host, so the exec's host pid is ours to signal: it leads
        its own session and process group, and every descendant carries the run id.
        """
        if self._pid is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._pid, signum)
        marked = procfs.pids_with_env(f"{RUN_ID_KEY}={self.run_id}".encode(), {os.getpid()})
        for pid in marked:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signum)
        return len(marked)


def owns_host_pid(pid: int | None, run_id: str | None) -> bool:
    """Whether pid is visible here and is the exec'd process of this run (same-host engine)."""
    if pid is None or run_id is None:
        return False
    try:
        with open(f"/proc/{pid}/environ", "rb") as fh:
            return f"{RUN_ID_KEY}={run_id}".encode() in fh.read().split(b"\0")
    except OSError:
        return False


def kill_orphaned_execs(root: str, name: str) -> int:
    """SIGKILL exec'd processes of this project's process left by a dead supervisor."""
    return procfs.kill_with_env(f"{OWNER_KEY}={root}:{name}".encode())
