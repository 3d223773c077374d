"""The supervisor: loads the project and owns one runtime per process.

It reloads the config when the file or the runtime definitions change (reloader.py
applies it), restores what a dead predecessor left running, and stops
everything when told to. Around it: the runtimes' host (host.py), the output log
(output_log.py), the event bus (events.py), the sentinel link (sentinel_link.py, injected) and the reaper.
"""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path

from procler import project, states
from procler.config.model import ProcessSpec, ProjectConfig
from procler.config.scaling import write_scale
from procler.contexts.base import ExecutionContext
from procler.contexts.local import LocalContext
from procler.errors import ProcessNotFound
from procler.supervisor.clock import Clock
from procler.supervisor.config_keeper import ConfigKeeper
from procler.supervisor.event_bus import EventBus
from procler.supervisor.host import RuntimeHost
from procler.supervisor.memory_guard import MemoryGuard
from procler.supervisor.output_log import OutputLog
from procler.supervisor.reaper import reap_orphans
from procler.supervisor.reloader import Applied, Reloader
from procler.supervisor.runtime import ProcessRuntime
from procler.supervisor.schedule_store import ScheduleStore
from procler.supervisor.scheduler import Scheduler
from procler.supervisor.sentinel_link import Sentinel, SentinelLink
from procler.supervisor.state_store import StateStore
from procler.supervisor.watcher import Watcher

log = logging.getLogger("procler.supervisor")


class Supervisor:
    def __init__(
        self,
        root: str,
        config_path: str,
        lock_fd: int | None = None,
        clock: Clock | None = None,
        sentinel: Sentinel | None = None,
    ) -> None:
        self.root = root
        self.config_path = config_path  # its files (project.find_config), the first the project's
        self.state_dir = Path(project.state_dir(root))
        self.clock = clock or Clock()
        self.store = StateStore(self.state_dir / "state.db", batched=True)
        self.contexts: dict[str, ExecutionContext] = {"local": LocalContext()}
        self.runtimes: dict[str, ProcessRuntime] = {}
        self.started_at = self.clock.time()
        self.stop_requested = asyncio.Event()
        self.reloader = Reloader(self)
        self.watcher = Watcher(self)
        self.keeper = ConfigKeeper(
            root, config_path, self.state_dir / "definitions.json", self._sync
        )
        self.output = OutputLog()
        self.events = EventBus(self.clock.time)
        self.sentinel = sentinel or SentinelLink(root, lock_fd)
        self.host = RuntimeHost(
            root, self.store, self.clock, self.sentinel, self.output, self.runtimes, self.events
        )
        self.memory = MemoryGuard(lambda: self.runtimes.values(), self.clock)
        self.schedules = Scheduler(self.runtimes, ScheduleStore(lambda: self.store.db), self.clock)

    # -- configuration --------------------------------------------------------------------

    def config(self) -> ProjectConfig:
        """The running config (the last valid one while the file is broken)."""
        return self.keeper.current()

    def reopen_state(self) -> None:
        """The state directory was removed under us (`git clean`): write it again from what
        we hold (desired state, open runs, runtime definitions) and start new log files."""
        old, self.store = self.store, StateStore(self.state_dir / "state.db", batched=True)
        old.close()
        self.host.store = self.store
        self.store.set_meta("base_env", self.host.base_env)
        for rt in self.runtimes.values():
            self.store.save_process(rt.name, rt.desired, rt.run, rt.restarts, rt.last_exit)
            if rt.proc is not None and rt.status in states.ALIVE:
                self.store.run_started(rt.name, rt.run, rt.proc.pid, rt.started_at or 0.0)
        if self.keeper.loaded_definitions is not None:
            fd = os.open(self.keeper.definitions, os.O_WRONLY | os.O_CREAT, 0o600)
            with open(fd, "wb") as handle:
                handle.write(self.keeper.loaded_definitions)
        scaled = {} if self.keeper.valid is None else self.keeper.valid.replica_sets
        counts = {n: {"declared": r.declared, "count": r.count} for n, r in scaled.items()}
        if any(r.count != r.declared for r in scaled.values()):
            write_scale(self.root, counts)  # the `procler scale` counts in force
        self.output.reopen(self.state_dir / "logs")

    def _sync(self, cfg: ProjectConfig) -> None:
        self.output.open(self.state_dir / "logs", cfg.logs.max_size, cfg.logs.max_files)
        self.events.configure(cfg.events.buffer, cfg.events.subscriber_queue)
        self.reloader.take(cfg)

    async def settle(self) -> Applied:
        """Wait until the configs taken so far are applied; the latest one's outcome."""
        return await self.reloader.settled()

    def new_runtime(self, spec: ProcessSpec) -> ProcessRuntime:
        rt = ProcessRuntime(spec, self.context_for(spec), self.host, self.clock)
        saved = self.store.process(spec.name)
        rt.desired, rt.run, rt.restarts = saved["desired"], saved["runs"], saved["restarts"]
        rt.last_exit = saved["last_exit"]
        return rt

    def context_for(self, spec: ProcessSpec) -> ExecutionContext:
        """The execution context a spec runs in (docker's is made on first use)."""
        if spec.context not in self.contexts:
            from procler.contexts.docker import DockerContext

            self.contexts[spec.context] = DockerContext(self.root)
        return self.contexts[spec.context]

    def runtime(self, name: str) -> ProcessRuntime:
        cfg = self.config()
        if name not in self.runtimes or name not in cfg.processes:
            raise ProcessNotFound.among(name, cfg.processes)
        return self.runtimes[name]

    # -- life cycle -----------------------------------------------------------------------

    async def boot(self) -> None:
        """Record what a dead predecessor lost and bring back what should be running."""
        self.output.start()
        self.memory.start()
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
                if cfg.processes[n].schedule is None
                and (self.runtimes[n].desired == states.DESIRED_RUNNING or n in lost_names)
            ),
            return_exceptions=True,
        )
        await self.schedules.start()  # the scheduler fires scheduled processes itself

    def child_exited(self) -> None:
        """SIGCHLD: only note it; the reaping runs on the loop."""
        asyncio.get_running_loop().call_soon(self.reap_orphans)

    def reap_orphans(self) -> int:
        """Reap zombies reparented to us, leaving our own children to their owners."""
        local = self.contexts["local"]
        if isinstance(local, LocalContext) and local.spawning:
            # a child forked but not yet registered could be taken for an orphan: later
            asyncio.get_running_loop().call_later(0.1, self.reap_orphans)
            return 0
        own = local.children if isinstance(local, LocalContext) else set()
        return reap_orphans(own | {pid for pid in (self.sentinel.pid,) if pid is not None})

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
        self.schedules.halt()
        await self.watcher.close()
        await self.memory.close()
        await self.stop_processes(keep_desired=True)
        await self.schedules.close()
        self.output.close()
        await self.sentinel.close()
        self.events.close()  # after the last transitions: subscribers saw the processes stop
        self.store.close()
