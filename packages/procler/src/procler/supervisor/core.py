"""The supervisor: loads the project, owns one runtime per process and answers commands.

It is the runtimes' Host: it gives them their environment, persists their transitions,
tells the sentinel which process groups exist, and stores their output.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import subprocess
import sys
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from agentcli.errors import AgentError
from procler import __version__, project, states
from procler.config.model import ProcessSpec, ProjectConfig
from procler.contexts import procfs
from procler.contexts.base import ExecutionContext, OutputBatch, RunningProcess
from procler.contexts.local import LocalContext
from procler.errors import ProcessNotFound
from procler.logs.store import LogStore
from procler.supervisor.clock import Clock, iso
from procler.supervisor.runtime import ProcessRuntime
from procler.supervisor.store import StateStore

log = logging.getLogger("procler.supervisor")

FLUSH_EVERY = 0.05  # seconds between log flushes: what a kill -9 can lose at most


def _stamp(path: Path) -> float | None:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return None


class Supervisor:
    def __init__(
        self, root: str, config_path: str, lock_fd: int | None = None, clock: Clock | None = None
    ) -> None:
        self.root = root
        self.config_path = Path(config_path)
        self.state_dir = Path(project.state_dir(root))
        self.clock = clock or Clock()
        self.store = StateStore(self.state_dir / "state.db")
        self.contexts: dict[str, ExecutionContext] = {"local": LocalContext()}
        self.runtimes: dict[str, ProcessRuntime] = {}
        self.started_at = self.clock.time()
        self.stop_requested = asyncio.Event()
        self._config: ProjectConfig | None = None
        self._stamps: tuple[float | None, ...] = ()
        self._definitions: bytes | None = None  # definitions.json as last loaded
        self.logs: LogStore | None = None
        self.base_env = self._base_environment()
        # The sentinel shares our lock (pass_fds): the lock is free only once it has swept.
        self._sentinel = subprocess.Popen(
            [sys.executable, "-m", "procler.supervisor.sentinel", root],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            start_new_session=True,
            pass_fds=() if lock_fd is None else (lock_fd,),
        )
        self._flusher: asyncio.Task[None] | None = None
        self._retired: set[asyncio.Future[Any]] = set()
        self._restarting: set[asyncio.Future[Any]] = set()  # dependents, after a dependency
        self._output_pending = asyncio.Event()

    # -- configuration --------------------------------------------------------------------

    def _base_environment(self) -> dict[str, str]:
        """The environment captured when the project's first supervisor started."""
        saved = self.store.get_meta("base_env")
        if saved is None:
            saved = {k: v for k, v in os.environ.items() if not k.startswith("PROCLER_")}
            self.store.set_meta("base_env", saved)
        return dict(saved)

    def config(self) -> ProjectConfig:
        """The project's config, reloaded when the YAML or the runtime definitions changed."""
        from procler.config.load import load_project

        definitions = self.state_dir / "definitions.json"
        stamps = (_stamp(self.config_path), _stamp(definitions))
        if self._config is None or stamps != self._stamps:
            cfg = load_project(str(self.config_path))
            self._config, self._stamps = cfg, stamps
            with contextlib.suppress(OSError):
                self._definitions = definitions.read_bytes() if stamps[1] else None
            self._sync(cfg)
        return self._config

    def reopen_state(self) -> None:
        """The state directory was removed under us (`git clean`): write it again from what
        we hold (desired state, open runs, runtime definitions) and start new log files."""
        old, self.store = self.store, StateStore(self.state_dir / "state.db")
        old.close()
        self.store.set_meta("base_env", self.base_env)
        for rt in self.runtimes.values():
            self.store.save_process(rt.name, rt.desired, rt.run, rt.restarts, rt.last_exit)
            if rt.proc is not None and rt.status in states.ALIVE:
                self.store.run_started(rt.name, rt.run, rt.proc.pid, rt.started_at or 0.0)
        if self._definitions is not None:
            fd = os.open(self.state_dir / "definitions.json", os.O_WRONLY | os.O_CREAT, 0o600)
            with open(fd, "wb") as handle:
                handle.write(self._definitions)
        if self.logs is not None:
            self.logs.close()
            self.logs = LogStore(self.state_dir / "logs", self.logs.max_size, self.logs.max_files)

    def _sync(self, cfg: ProjectConfig) -> None:
        if self.logs is None:
            self.logs = LogStore(self.state_dir / "logs", cfg.logs.max_size, cfg.logs.max_files)
        for name, spec in cfg.processes.items():
            rt = self.runtimes.get(name)
            if rt is None:
                self.runtimes[name] = self._new_runtime(spec)
            else:
                rt.redefine(spec, self._context(spec))
        for name in [n for n in self.runtimes if n not in cfg.processes]:
            # The definition is gone (e.g. `procler remove`): nobody could address the
            # process any more, so it is stopped and forgotten.
            self._background(self._retire(self.runtimes.pop(name)), self._retired)

    async def _retire(self, rt: ProcessRuntime) -> None:
        try:
            await rt.stop("definition removed")
            dropped = await rt.context.forget(rt.spec)
        except Exception:  # a background task: nobody else would see the error
            log.exception("%s: retiring the removed process failed", rt.name)
            return
        if dropped:
            log.info("%s: removed container(s) %s", rt.name, ", ".join(d[:12] for d in dropped))

    async def settle(self) -> None:
        """Wait until processes whose definitions were removed are stopped and cleaned up."""
        if self._retired:
            await asyncio.gather(*list(self._retired), return_exceptions=True)

    def _new_runtime(self, spec: ProcessSpec) -> ProcessRuntime:
        rt = ProcessRuntime(spec, self._context(spec), self, self.clock)
        saved = self.store.process(spec.name)
        rt.desired, rt.run, rt.restarts = saved["desired"], saved["runs"], saved["restarts"]
        rt.last_exit = saved["last_exit"]
        return rt

    def _context(self, spec: ProcessSpec) -> ExecutionContext:
        if spec.context not in self.contexts:
            from procler.contexts.docker import DockerContext

            self.contexts[spec.context] = DockerContext(self.root)
        return self.contexts[spec.context]

    def runtime(self, name: str) -> ProcessRuntime:
        cfg = self.config()
        if name not in self.runtimes or name not in cfg.processes:
            from agentcli.parser import did_you_mean

            hint = did_you_mean(name, sorted(cfg.processes))
            raise ProcessNotFound(
                f"no process named {name!r}",
                suggestion=(hint + " " if hint else "")
                + "run `procler list` to see the defined processes",
            )
        return self.runtimes[name]

    # -- Host protocol --------------------------------------------------------------------

    def environment(self, spec: ProcessSpec) -> dict[str, str]:
        env = dict(self.base_env)
        env.update(spec.env)
        env["PROCLER_PROCESS_NAME"] = spec.name
        env["PROCLER_PROJECT_ROOT"] = self.root
        return env

    def record(self, rt: ProcessRuntime, src: str, dst: str, reason: str) -> None:
        log.info("%s: %s -> %s (%s)", rt.name, src, dst, reason)
        self.store.event(rt.name, src, dst, reason)
        self.store.save_process(rt.name, rt.desired, rt.run, rt.restarts, rt.last_exit)
        if src != dst:
            self._tell_dependents(rt, dst)

    # -- dependencies ---------------------------------------------------------------------

    def dependency_down(self, rt: ProcessRuntime) -> tuple[str, str] | None:
        """(name, why) of the first dependency that died or was stopped, while rt runs or
        should run; None otherwise."""
        if rt.status in states.AT_REST and rt.desired != "running":
            return None
        for dep in rt.spec.depends_on:
            other = self.runtimes.get(dep.name)
            if other is not None and states.dependency_down(dep.condition, other.status):
                reason = (
                    (other.last_exit or {}).get("reason") if other.status != "stopping" else None
                )
                why = f"{dep.name} is {other.status}" + (f" ({reason})" if reason else "")
                return dep.name, f"{why}; {rt.name} needs it {dep.condition}"
        return None

    def _tell_dependents(self, dep: ProcessRuntime, status: str) -> None:
        """`depends_on: {restart: true}`: a dependent that should run is restarted when the
        dependency comes back (meets its condition again after it died or was stopped)."""
        for rt in self.runtimes.values():
            for wanted in rt.spec.depends_on:
                if wanted.name != dep.name or not wanted.restart:
                    continue
                if states.dependency_down(wanted.condition, status) and rt.desired == "running":
                    rt.waiting_for.add(dep.name)
                elif states.condition_met(wanted.condition, status) and dep.name in rt.waiting_for:
                    rt.waiting_for.discard(dep.name)
                    if rt.desired == "running" or rt.status == states.FAILED:
                        self._background(self._restart_dependent(rt, dep.name), self._restarting)

    async def _restart_dependent(self, rt: ProcessRuntime, dep: str) -> None:
        try:
            await rt.restart(f"restarted: its dependency {dep} came back")
        except AgentError as err:  # the runtime recorded the failed start
            log.info("%s: restart after %s came back failed: %s", rt.name, dep, err.message)

    @staticmethod
    def _background(work: Coroutine[Any, Any, None], tasks: set[asyncio.Future[Any]]) -> None:
        """Run work on the loop, holding a reference in tasks until it is done."""
        task = asyncio.ensure_future(work)
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    def _tell_sentinel(self, line: str) -> None:
        assert self._sentinel.stdin is not None
        self._sentinel.stdin.write(line.encode() + b"\n")
        self._sentinel.stdin.flush()

    def spawned(self, rt: ProcessRuntime, proc: RunningProcess) -> None:
        self.store.run_started(rt.name, rt.run, proc.pid, self.clock.time())
        if proc.run_id is not None:  # a local run, or a command exec'd in a container
            group = f" {proc.pid}" if rt.spec.context == "local" and proc.pid is not None else ""
            self._tell_sentinel(f"+{proc.run_id}{group}")

    def reaped(self, rt: ProcessRuntime, proc: RunningProcess) -> None:
        self.store.run_ended(rt.name, rt.run, self.clock.time())
        if proc.run_id is not None:
            self._tell_sentinel(f"-{proc.run_id}")

    def output(self, rt: ProcessRuntime, run: int, batch: OutputBatch) -> None:
        assert self.logs is not None
        self.logs.append_many(rt.name, batch.ts, batch.stream, run, batch.texts, batch.partial)
        self._output_pending.set()

    # -- life cycle -----------------------------------------------------------------------

    async def boot(self) -> None:
        """Record what a dead predecessor lost and bring back what should be running."""
        self._flusher = asyncio.create_task(self._flush_logs())
        lost = self.store.open_runs()
        try:
            cfg = self.config()
        except Exception:
            log.exception("config not loadable at boot; nothing restored")
            return
        lost_names = set()
        for name, run, _pid in lost:
            self.store.run_ended(name, run, self.clock.time())
            lost_names.add(name)
        await asyncio.gather(
            *(
                self.runtimes[n].restore("restored after supervisor restart", n in lost_names)
                for n in cfg.processes
                if self.runtimes[n].desired == "running" or n in lost_names
            ),
            return_exceptions=True,
        )

    async def _flush_logs(self) -> None:
        """Flush the log store FLUSH_EVERY after output arrives; sleep while all is quiet."""
        while True:
            await self._output_pending.wait()
            await asyncio.sleep(FLUSH_EVERY)
            self._output_pending.clear()
            if self.logs is not None:
                self.logs.flush()

    def child_exited(self) -> None:
        """SIGCHLD: only note it; the reaping runs on the loop."""
        asyncio.get_running_loop().call_soon(self.reap_orphans)

    def reap_orphans(self) -> int:
        """Reap zombies reparented to us (we are a child subreaper); return how many.

        Our own children (runs, probes, the sentinel) are left to their owners.
        """
        local = self.contexts["local"]
        own = {self._sentinel.pid} | (local.children if isinstance(local, LocalContext) else set())
        reaped = 0
        for pid in procfs.children(os.getpid()):
            stat = procfs.read_stat(pid)
            if pid in own or stat is None or stat.state != "Z":
                continue
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)
                reaped += 1
        return reaped

    async def stop_processes(self, keep_desired: bool) -> list[str]:
        """Stop every running process; keep the desired state for the next supervisor or clear it."""
        rts = [rt for rt in self.runtimes.values() if rt.status not in states.AT_REST]
        if keep_desired:
            await asyncio.gather(*(rt.shutdown() for rt in rts), return_exceptions=True)
        else:
            await asyncio.gather(*(rt.stop("daemon stop") for rt in rts), return_exceptions=True)
        return [rt.name for rt in rts]

    async def close(self) -> None:
        """Stop what still runs, flush logs, release the sentinel (EOF) and the database."""
        await self.stop_processes(keep_desired=True)
        if self._flusher is not None:
            self._flusher.cancel()
        if self.logs is not None:
            self.logs.close()
        assert self._sentinel.stdin is not None
        self._sentinel.stdin.close()  # EOF: the sentinel sweeps (nothing is left) and exits
        await asyncio.to_thread(self._sentinel.wait, 10)
        self.store.close()

    def uptime(self) -> float:
        return round(time.time() - self.started_at, 3)

    def about(self) -> dict[str, Any]:
        return {
            "running": True,
            "pid": os.getpid(),
            "version": __version__,
            "started_at": iso(self.started_at),
            "uptime_seconds": self.uptime(),
            "project_root": self.root,
            "config": str(self.config_path),
            "socket": project.socket_path(self.root),
            "processes": len(self.runtimes),
        }
