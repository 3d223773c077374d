"""The supervisor: loads the project and owns one runtime per process.

It reloads the config when the file or the runtime definitions change (reloader.py
applies it), restores what a dead predecessor left running (in dependency order, each
process after its dependencies meet their conditions, as `up` starts them, and never
while its old run still ends: previous_runs.py), and stops everything when told to. Around it: the runtimes' host (host.py), the output log
(output_log.py), the event bus (events.py), the sentinel link (sentinel_link.py, injected) and the reaper.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Awaitable, Callable
from pathlib import Path

from agentcli.errors import AgentError
from procler import project, states
from procler.config.graph import DependencyGraph
from procler.config.model import ProcessSpec, ProjectConfig
from procler.config.scaling import write_scale
from procler.contexts import registry
from procler.contexts.base import ExecutionContext
from procler.contexts.local import LocalContext
from procler.errors import ProcessNotFound
from procler.supervisor.clock import Clock
from procler.supervisor.config_keeper import ConfigKeeper
from procler.supervisor.event_bus import EventBus
from procler.supervisor.host import RuntimeHost
from procler.supervisor.memory_guard import MemoryGuard
from procler.supervisor.orchestrate import start_plan
from procler.supervisor.output_log import OutputLog
from procler.supervisor.previous_runs import find_previous
from procler.supervisor.reaper import reap_orphans
from procler.supervisor.reloader import Applied, Reloader
from procler.supervisor.runtime import ProcessRuntime
from procler.supervisor.schedule_store import ScheduleStore
from procler.supervisor.scheduler import Scheduler
from procler.supervisor.sentinel import stop_bound
from procler.supervisor.sentinel_link import Sentinel, SentinelLink
from procler.supervisor.state_store import StateStore
from procler.supervisor.watcher import Watcher

log = logging.getLogger("procler.supervisor")
# Boot answers its first request once the restore is done, or after this long (it goes on
# meanwhile; status shows each process on its way, and what it waits for). What still runs
# (a container, a daemon) is followed again before any answer, however long its engine
# takes within READOPT_WAIT: an answer never says stopped of what runs.
BOOT_WAIT = 3.0
READOPT_WAIT = 120.0
RESTORE_WAIT = 60.0  # bound on a restored process waiting for its dependencies (as `up`)


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
        self.store = self._open_store()
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
        self.restoring: asyncio.Task[None] | None = None
        self.readopted = asyncio.Event()  # the restore has followed again what still runs
        # Called before the processes are stopped for good (recipe runs are interrupted)
        self.before_stop: list[Callable[[], Awaitable[None]]] = []
        # `up` was the last word on the stack (not `down`): see reloader.py
        self._stack_up = bool(self.store.get_meta("stack_up"))

    # -- configuration --------------------------------------------------------------------

    def config(self) -> ProjectConfig:
        """The running config (the last valid one while the file is broken)."""
        return self.keeper.current()

    def _open_store(self) -> StateStore:
        """The state database, its events dated by this supervisor's clock."""
        return StateStore(self.state_dir / "state.db", batched=True, now=self.clock.time)

    def reopen_state(self) -> None:
        """The state directory was removed under us (`git clean`): write it again from what
        we hold (desired state, open runs, runtime definitions) and start new log files."""
        old, self.store = self.store, self._open_store()
        old.close()
        self.host.store = self.store
        self.store.set_meta("base_env", self.host.base_env)
        self.store.set_meta("stack_up", self._stack_up)
        for rt in self.runtimes.values():
            self.store.save_process(
                rt.name, rt.desired, rt.run, rt.restarts, rt.last_exit, rt.completed_hash
            )
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
        rt.completed(spec, saved["completed"])
        return rt

    @property
    def stack_up(self) -> bool:
        """`up` (of the whole config) was the last word on the stack, not `down`: a
        reload then starts what the config adds, as `up` of the new config would."""
        return self._stack_up

    def set_stack_up(self, up: bool) -> None:
        self._stack_up = up
        self.store.set_meta("stack_up", up)

    def end_session(self) -> None:
        """`down` or `daemon stop`: one-shots completed so far run again at the next `up`
        (as docker compose does); until then a killed supervisor's successor keeps them."""
        for rt in self.runtimes.values():
            rt.forget_completed()
        self.store.end_session()
        self.set_stack_up(False)

    def context_for(self, spec: ProcessSpec) -> ExecutionContext:
        """The execution context a spec runs in (each but local's made on first use)."""
        if spec.context not in self.contexts:
            self.contexts[spec.context] = registry.kind(spec.context).create(self.root)
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
        for name, run, _pid in lost:
            self.store.run_ended(name, run, self.clock.time())
        lost_names = {name for name, _run, _pid in lost if name in cfg.processes}
        local = {
            n: (s.stop_signal, _sweep_bound(s))
            for n, s in cfg.processes.items()
            if registry.kind(s.context).on_host and n in lost_names
        }
        leftovers = [(n, pid) for n, _run, pid in lost]
        for name, previous in find_previous(self.root, leftovers, local, self.clock).items():
            self.runtimes[name].previous = previous
            previous.watch()
        unscheduled = [n for n in cfg.processes if cfg.processes[n].schedule is None]
        wanted = [n for n in unscheduled if self.runtimes[n].desired == states.DESIRED_RUNNING]
        for name in lost_names.difference(wanted):  # the loss recorded; nothing to start
            await self.runtimes[name].restore("restored after supervisor restart", True)
        self.restoring = asyncio.create_task(self._restore(cfg, wanted, lost_names))
        await asyncio.wait([self.restoring], timeout=BOOT_WAIT)
        if not self.readopted.is_set():  # a slow engine: still asked what runs
            readopted = asyncio.ensure_future(self.readopted.wait())
            await asyncio.wait(
                [readopted, self.restoring],
                timeout=READOPT_WAIT,
                return_when=asyncio.FIRST_COMPLETED,
            )
            readopted.cancel()
        await self.schedules.start()  # the scheduler fires scheduled processes itself

    async def _restore(self, cfg: ProjectConfig, names: list[str], lost: set[str]) -> None:
        """Start again what should run, in dependency order: each once the dependencies
        restored with it meet their conditions (a dependency left stopped is not waited
        for: its dependents show `dependency_down`)."""
        await asyncio.gather(*(self.runtimes[n].readopt() for n in names))
        self.readopted.set()
        if not names:
            return
        wanted = set(names)
        graph = DependencyGraph(
            {n: [d.name for d in cfg.processes[n].depends_on if d.name in wanted] for n in names}
        )

        async def restore(rt: ProcessRuntime) -> dict[str, str]:
            await rt.restore("restored after supervisor restart", rt.name in lost, adopt=False)
            return {"name": rt.name}

        waits = max(
            (rt.previous.stop_timeout for rt in self.runtimes.values() if rt.previous), default=0.0
        )
        try:
            await start_plan(
                self.runtimes,
                graph,
                names,
                lambda n: tuple(d for d in cfg.processes[n].depends_on if d.name in wanted),
                restore,
                RESTORE_WAIT + waits,
            )
        except AgentError as err:  # each runtime recorded its own failure
            log.warning("restore after supervisor restart: %s", err.message)

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
        for hook in self.before_stop:
            await hook()
        if self.restoring is not None and not self.restoring.done():
            self.restoring.cancel()  # nothing starts after this
            await asyncio.wait([self.restoring])
        for rt in self.runtimes.values():
            if rt.previous is not None:
                rt.previous.cancel()
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


def _sweep_bound(spec: ProcessSpec) -> float:
    """How long the sentinel's sweep may take before it SIGKILLs a run of spec."""
    command = spec.stop_command
    return stop_bound(
        spec.stop_timeout, None if command is None else command.bound(spec.stop_timeout)
    )
