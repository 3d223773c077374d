"""LocalContext: processes on this machine, each in its own session and process group."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
from collections.abc import AsyncIterator, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from procler.config.model import ProcessSpec
from procler.contexts import procfs
from procler.contexts.base import (
    KILL_WAIT,
    ExecutionContext,
    ExitInfo,
    OutputBatch,
    OutputLine,
    RunningProcess,
)
from procler.contexts.daemon_mode import FollowedDaemon, await_daemon, find_daemon
from procler.contexts.pipe_reader import PipeReader
from procler.errors import StartFailed

RUN_ID_KEY = "PROCLER_RUN_ID"
UNWATCHED_RETRY = 0.05  # seconds: a process whose exit cannot be watched is looked at again


async def exits(pids: list[int], timeout: float) -> None:
    """Wait (bounded) until every one of pids has ended, woken by their pidfds (readable
    when a process has exited, a child of ours or not)."""
    loop = asyncio.get_running_loop()
    ended: dict[int, asyncio.Future[None]] = {}
    unwatched = False
    for pid in pids:
        try:
            fd = os.pidfd_open(pid)
        except ProcessLookupError:
            continue  # gone already
        except OSError:  # e.g. out of descriptors: the caller looks again a little later
            unwatched = True
            continue
        ended[fd] = loop.create_future()
        loop.add_reader(fd, _ended, ended[fd])
    bound = max(0.0, min(timeout, UNWATCHED_RETRY) if unwatched else timeout)
    try:
        if ended:
            await asyncio.wait(ended.values(), timeout=bound)
        else:  # all gone meanwhile: still yield once, so the caller's next look is afresh
            await asyncio.sleep(bound if unwatched else 0)
    finally:
        for fd in ended:
            loop.remove_reader(fd)
            os.close(fd)


def _ended(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


class LocalProcess(RunningProcess):
    """A child started with Popen; its exit is watched through a pidfd.

    asyncio's own subprocess wait() also waits for the pipes to close, so a daemonized
    grandchild holding stdout would hide the exit; a pidfd tells exactly when the
    main process ends.
    """

    def __init__(
        self, popen: subprocess.Popen[bytes], run_id: str, on_reaped: Callable[[int], None]
    ) -> None:
        self.popen = popen
        self.run_id = run_id  # in the environment of every process of this run
        self._on_reaped = on_reaped
        loop = asyncio.get_running_loop()
        self._exited: asyncio.Future[ExitInfo] = loop.create_future()
        self._sending = asyncio.Lock()  # one `send` at a time: their bytes never interleave
        if popen.stdin is not None:
            os.set_blocking(popen.stdin.fileno(), False)
        self._pidfd = os.pidfd_open(popen.pid)
        loop.add_reader(self._pidfd, self._on_exit)

    def _on_exit(self) -> None:
        rc = self.popen.poll()
        if rc is None:
            return
        loop = asyncio.get_running_loop()
        loop.remove_reader(self._pidfd)
        os.close(self._pidfd)
        if self.popen.stdin is not None:
            self.popen.stdin.close()  # nobody reads it any more
        self._on_reaped(self.popen.pid)
        if not self._exited.done():
            self._exited.set_result(ExitInfo(rc, None) if rc >= 0 else ExitInfo(None, -rc))

    @property
    def pid(self) -> int | None:
        return self.popen.pid

    async def wait(self) -> ExitInfo:
        return await asyncio.shield(self._exited)

    async def send(self, data: bytes, timeout: float) -> int:
        """Write data to the pipe on the run's stdin, woken when it has room, within
        timeout (TIMEOUT, saying how much was written, when the process does not read)."""
        from procler.errors import StdinClosed, Timeout

        pipe = self.popen.stdin
        if pipe is None or pipe.closed:
            raise StdinClosed("its run has ended" if pipe is not None else "stdin is not kept open")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        written = 0
        async with self._sending:
            while written < len(data):
                try:
                    written += os.write(pipe.fileno(), data[written:])
                    continue
                except BlockingIOError:
                    pass
                except (BrokenPipeError, ValueError):  # read end closed, or pipe closed
                    raise StdinClosed(
                        f"the process closed its stdin after {written} byte(s) of {len(data)}",
                        suggestion="restart it to get a new stdin",
                        data={"bytes": written},
                    ) from None
                room: asyncio.Future[None] = loop.create_future()
                loop.add_writer(pipe.fileno(), _ended, room)
                try:
                    await asyncio.wait_for(room, max(0.0, deadline - loop.time()))
                except TimeoutError:
                    raise Timeout(
                        f"wrote {written} of {len(data)} byte(s) in {timeout:g}s: the process "
                        "is not reading its stdin",
                        suggestion="see what it waits for: `procler logs NAME`",
                        data={"bytes": written},
                    ) from None
                finally:
                    loop.remove_writer(pipe.fileno())
        return written

    async def output(self) -> AsyncIterator[OutputLine | OutputBatch]:
        # unbounded for put_nowait; each PipeReader stops reading at its QUEUE_BOUND
        queue: asyncio.Queue[OutputBatch | None] = asyncio.Queue()
        assert self.popen.stdout is not None and self.popen.stderr is not None
        readers = [
            PipeReader(self.popen.stdout, "stdout", queue),
            PipeReader(self.popen.stderr, "stderr", queue),
        ]
        open_streams = 2
        try:
            while open_streams:
                item = await queue.get()
                for reader in readers:
                    reader.resume()
                if item is None:
                    open_streams -= 1
                else:
                    yield item
        finally:
            for reader in readers:
                reader.close()

    def details(self, stat: Any = None) -> dict[str, Any]:
        return {"linux_state": procfs.linux_state(stat or procfs.read_stat(self.popen.pid))}


SPAWN_THREADS = 8  # forks in parallel: each waits for its exec with the GIL released


def _popen(
    argv: list[str], cwd: str, env: Mapping[str, str], run_id: str, stdin: bool = False
) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        argv,
        cwd=cwd,
        env={**env, RUN_ID_KEY: run_id},
        stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        close_fds=True,
    )


def _abandon(forked: asyncio.Future[subprocess.Popen[bytes]]) -> None:
    """A fork whose start was cancelled: its group is killed and it is reaped."""
    if forked.cancelled() or forked.exception() is not None:
        return
    popen = forked.result()
    with contextlib.suppress(OSError):
        os.killpg(popen.pid, signal.SIGKILL)
    popen.wait()


class LocalContext(ExecutionContext):
    def __init__(self) -> None:
        # Pids of our own children not yet reaped; the supervisor's orphan reaper leaves
        # them alone. Registered in the same synchronous step as the fork, so no race.
        self.children: set[int] = set()
        # The current run id of each process: its probes carry it, so that the sentinel,
        # which sweeps by run id, also ends a probe running when the supervisor dies.
        self.run_ids: dict[str, str] = {}
        self._spawner: ThreadPoolExecutor | None = None
        self.spawning = 0  # forks in flight in the spawner's threads (spawn_soon)
        self._forked_inline = False  # this turn of the loop (see spawn_soon)
        self._tree: list[procfs.ProcStat] | None = None  # see _descendants
        self._tree_taken = False

    def _descendants(self) -> list[procfs.ProcStat] | None:
        """procfs.own_descendants, looked at once per turn of the event loop: the stops of
        a burst (`down` of 1,000 processes) that run in one turn share one walk of the
        tree instead of each walking all of it (which made stopping N processes N^2)."""
        if self._tree_taken:
            return self._tree
        self._tree = procfs.own_descendants()
        try:
            asyncio.get_running_loop().call_soon(self._forget_tree)
        except RuntimeError:  # no loop: nothing can share it
            return self._tree
        self._tree_taken = True
        return self._tree

    def _forget_tree(self) -> None:
        self._tree, self._tree_taken = None, False

    def _next_turn(self) -> None:
        self._forked_inline = False

    def spawn(
        self, argv: list[str], cwd: str, env: Mapping[str, str], run_id: str, stdin: bool = False
    ) -> LocalProcess:
        """Fork and exec in a new session with piped output (synchronous, registered);
        with `stdin`, its stdin is a pipe kept open (else /dev/null)."""
        popen = _popen(argv, cwd, env, run_id, stdin)
        self.children.add(popen.pid)
        return LocalProcess(popen, run_id, self.children.discard)

    async def spawn_soon(
        self, argv: list[str], cwd: str, env: Mapping[str, str], run_id: str, stdin: bool = False
    ) -> LocalProcess:
        """spawn, with the fork and exec in a worker thread: the parent waits there for the
        exec, so a burst of starts (up of 1,000 processes) neither holds the loop (every
        other answer) nor runs one at a time. While one is in flight the orphan reaper
        waits (`spawning`): the child is not registered yet.

        A lone start (no fork in flight, none done on the loop in this turn) forks on the
        loop: the exec it waits for takes about a millisecond, while handing the fork to a
        thread costs two wake-ups before the child even exists (each several ms on a
        loaded machine), and a recipe's or a dependency chain's starts come one by one."""
        if not self.spawning and not self._forked_inline:
            self._forked_inline = True
            asyncio.get_running_loop().call_soon(self._next_turn)
            return self.spawn(argv, cwd, env, run_id, stdin)
        if self._spawner is None:
            self._spawner = ThreadPoolExecutor(SPAWN_THREADS, thread_name_prefix="spawn")
        self.spawning += 1
        try:
            forked = asyncio.get_running_loop().run_in_executor(
                self._spawner, _popen, argv, cwd, env, run_id, stdin
            )
            try:
                popen = await asyncio.shield(forked)
            except asyncio.CancelledError:
                forked.add_done_callback(_abandon)  # nobody will own it: ended at once
                raise
            self.children.add(popen.pid)
        finally:
            self.spawning -= 1
        return LocalProcess(popen, run_id, self.children.discard)

    async def start(self, spec: ProcessSpec, env: Mapping[str, str], run: int) -> RunningProcess:
        # A unique run id in the environment lets stop() find descendants that left the
        # process group (daemonized), since children inherit the environment.
        run_id = f"{spec.name}.{run}.{os.urandom(6).hex()}"
        self.run_ids[spec.name] = run_id
        try:
            return await self.spawn_soon(spec.argv(), spec.cwd, env, run_id, spec.stdin)
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
        except OSError as exc:  # cwd became a file, a name too long, a loop of links...
            raise StartFailed(
                f"{spec.name}: cannot start: {exc.strerror}: {exc.filename}",
                suggestion="check `args`/`command` and `cwd` in the config",
                data={"name": spec.name, "status": "failed"},
            ) from None

    async def signal(self, proc: RunningProcess, signum: int) -> None:
        if proc.pid is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if isinstance(proc, FollowedDaemon) and os.getpgid(proc.pid) != proc.pid:
                os.kill(proc.pid, signum)  # a daemon that did not become a group leader
            else:
                os.killpg(proc.pid, signum)

    async def stop(self, proc: RunningProcess, signum: int, timeout: float) -> ExitInfo:
        """Signal every process of the run, give them all stop_timeout, then SIGKILL.

        The leader often ends first (a shell dies of SIGTERM at once while its program
        runs its handler), so the wait is for the whole run, not for the main pid alone.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        await self.signal(proc, signum)
        procfs.signal_pids(self.escaped(proc, self._descendants()), signum)
        try:
            info = await asyncio.wait_for(proc.wait(), timeout)
        except TimeoutError:
            await self.signal(proc, signal.SIGKILL)
            info = await asyncio.wait_for(proc.wait(), KILL_WAIT)
        while (left := self.members(proc)) and loop.time() < deadline:
            # woken by their exits; a member may have forked meanwhile: look again after
            await exits(left, deadline - loop.time())
        if left:  # still there after stop_timeout (none left: nothing of the run can fork)
            await self.signal(proc, signal.SIGKILL)
            self.kill_escaped(proc)
        return info

    def members(self, proc: RunningProcess) -> list[int]:
        """Live processes of the run: its group and those that left it."""
        among = self._descendants()
        group = procfs.group_members(proc.pid, among) if proc.pid is not None else []
        return group + self.escaped(proc, among)

    def escaped(self, proc: RunningProcess, among: list[procfs.ProcStat] | None) -> list[int]:
        """Live processes of this run outside its group (not our own children: probes),
        looked for among `among` (see procfs.own_descendants) or on the whole machine."""
        if not isinstance(proc, LocalProcess) or not proc.run_id:
            return []
        return self._outside_group(proc, proc.run_id, among)

    def _outside_group(
        self, proc: RunningProcess, run_id: str, among: list[procfs.ProcStat] | None
    ) -> list[int]:
        # Members of the group are left out: they get the group's signal, and one just
        # SIGKILLed with it may not be gone yet (it would be counted twice).
        marker = f"{RUN_ID_KEY}={run_id}".encode()
        found = procfs.pids_with_env(marker, {os.getpid(), *self.children}, among)
        pgid = proc.pid
        return [pid for pid in found if (st := procfs.read_stat(pid)) and st.pgrp != pgid]

    async def reap_leftovers(self, proc: RunningProcess) -> int:
        left = 0
        if proc.pid is not None:
            among = self._descendants()
            snapshot = procfs.all_stats().values() if among is None else among
            left = sum(1 for st in snapshot if st.pgrp == proc.pid)
            await self.signal(proc, signal.SIGKILL)
        return left + self.kill_escaped(proc)

    async def exec_probe(
        self, spec: ProcessSpec, command: str, env: Mapping[str, str], timeout: float
    ) -> tuple[bool, str]:
        """Run command with the process's cwd and environment; exit 0 is healthy."""
        run_id = self.run_ids.get(spec.name, f"{spec.name}.probe")
        proc = self.spawn(["/bin/sh", "-c", command], spec.cwd, env, run_id)
        texts: list[str] = []

        async def collect() -> None:
            async for item in proc.output():
                texts.extend(item.texts if isinstance(item, OutputBatch) else [item.text])

        reader = asyncio.create_task(collect())
        try:
            info = await asyncio.wait_for(proc.wait(), timeout)
        except TimeoutError:
            await self.signal(proc, signal.SIGKILL)
            await proc.wait()
            reader.cancel()
            return False, f"exec timed out after {timeout:g}s"
        except asyncio.CancelledError:  # the run ended: its probe goes with it
            await self.signal(proc, signal.SIGKILL)
            reader.cancel()
            raise
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(reader, 1.0)
        output = " ".join(texts).strip()
        return info.code == 0, f"exit {info.code}: {output}"[:200]

    async def kill_now(self, proc: RunningProcess) -> None:
        await self.signal(proc, signal.SIGKILL)
        self.kill_escaped(proc)

    def kill_escaped(self, proc: RunningProcess) -> int:
        """SIGKILL processes of this run that left the group (e.g. daemonized); return how many."""
        if not isinstance(proc, LocalProcess | FollowedDaemon) or not proc.run_id:
            return 0
        found = self._outside_group(proc, proc.run_id, self._descendants())
        return procfs.signal_pids(found, signal.SIGKILL)

    async def follow_daemon(
        self, spec: ProcessSpec, launcher: RunningProcess
    ) -> RunningProcess | None:
        """daemon_mode: the daemon the launcher left (waited for, bounded), to follow instead."""
        assert spec.daemon is not None
        pid = await await_daemon(spec.daemon)
        run_id = (launcher.run_id or "") if isinstance(launcher, LocalProcess) else ""
        return None if pid is None else FollowedDaemon(pid, run_id)

    async def adopt(self, spec: ProcessSpec) -> RunningProcess | None:
        """adopt_existing: a daemon already running is followed, not started again."""
        if spec.daemon is None or not spec.daemon.adopt_existing:
            return None
        pid = find_daemon(spec.daemon)
        return None if pid is None else FollowedDaemon(pid)
