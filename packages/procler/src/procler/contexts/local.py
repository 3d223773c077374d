"""LocalContext: processes on this machine, each in its own session and process group."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import AsyncIterator, Mapping
from typing import Any

from procler.config.model import ProcessSpec
from procler.contexts import procfs
from procler.contexts.base import ExecutionContext, ExitInfo, OutputLine, RunningProcess
from procler.errors import StartFailed
from procler.logs.capture import read_lines

KILL_WAIT = 5.0  # bound on waiting for a SIGKILLed group to be reaped


RUN_ID_KEY = "PROCLER_RUN_ID"


class LocalProcess(RunningProcess):
    def __init__(self, proc: asyncio.subprocess.Process, run_id: str) -> None:
        self.proc = proc
        self.run_id = run_id  # in the environment of every process of this run
        self._exit: ExitInfo | None = None

    @property
    def pid(self) -> int | None:
        return self.proc.pid

    async def wait(self) -> ExitInfo:
        if self._exit is None:
            rc = await self.proc.wait()
            self._exit = ExitInfo(rc, None) if rc >= 0 else ExitInfo(None, -rc)
        return self._exit

    async def output(self) -> AsyncIterator[OutputLine]:
        queue: asyncio.Queue[OutputLine | None] = asyncio.Queue(maxsize=4096)

        async def pump(reader: asyncio.StreamReader | None, stream: str) -> None:
            if reader is not None:
                async for chunk in read_lines(reader, stream):
                    await queue.put(OutputLine(stream, chunk.text))
            await queue.put(None)

        tasks = [
            asyncio.create_task(pump(self.proc.stdout, "stdout")),
            asyncio.create_task(pump(self.proc.stderr, "stderr")),
        ]
        open_streams = 2
        try:
            while open_streams:
                item = await queue.get()
                if item is None:
                    open_streams -= 1
                else:
                    yield item
        finally:
            for task in tasks:
                task.cancel()

    def details(self) -> dict[str, Any]:
        return {"linux_state": procfs.linux_state(procfs.read_stat(self.proc.pid))}


def signal_number(name: str) -> int:
    """'TERM', 'SIGTERM' or '15' -> 15."""
    if name.isdigit():
        return int(name)
    return int(getattr(signal, name if name.startswith("SIG") else f"SIG{name}"))


class LocalContext(ExecutionContext):
    name = "local"

    async def start(self, spec: ProcessSpec, env: Mapping[str, str], run: int) -> RunningProcess:
        # A unique run id in the environment lets stop() find descendants that left the
        # process group (daemonized), since children inherit the environment.
        run_id = f"{spec.name}.{run}.{os.urandom(6).hex()}"
        try:
            proc = await asyncio.create_subprocess_exec(
                *spec.argv(),
                cwd=spec.cwd,
                env={**env, RUN_ID_KEY: run_id},
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                start_new_session=True,
                limit=1 << 20,
            )
        except FileNotFoundError as exc:
            raise StartFailed(
                f"{spec.name}: cannot start: {exc.strerror}: {exc.filename}",
                suggestion="check `args`/`command` and `cwd` in the config",
                data={"name": spec.name, "status": "failed"},
            ) from None
        except PermissionError as exc:
            raise StartFailed(
                f"{spec.name}: cannot start: permission denied: {exc.filename}",
                suggestion="make the program executable or run it through an interpreter",
                data={"name": spec.name, "status": "failed"},
            ) from None
        return LocalProcess(proc, run_id)

    async def signal(self, proc: RunningProcess, signum: int) -> None:
        if proc.pid is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signum)

    async def stop(self, proc: RunningProcess, signum: int, timeout: float) -> ExitInfo:
        await self.signal(proc, signum)
        try:
            info = await asyncio.wait_for(proc.wait(), timeout)
        except TimeoutError:
            await self.signal(proc, signal.SIGKILL)
            info = await asyncio.wait_for(proc.wait(), KILL_WAIT)
        # The leader is gone; kill what is left of its group and anything that escaped it.
        await self.signal(proc, signal.SIGKILL)
        self.kill_escaped(proc)
        return info

    def kill_escaped(self, proc: RunningProcess) -> int:
        """SIGKILL processes of this run that left the group (e.g. daemonized); return how many."""
        if not isinstance(proc, LocalProcess):
            return 0
        killed = 0
        for pid in procfs.pids_with_env(f"{RUN_ID_KEY}={proc.run_id}".encode(), {os.getpid()}):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
                killed += 1
        return killed
