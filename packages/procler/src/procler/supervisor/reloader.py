"""Reload: the one place a new config reaches the processes.

The ConfigKeeper hands every newly loaded valid config to `Reloader.take`, whichever
command noticed the change (`procler reload`, or any command after the file changed).
`take` diffs it against the config applied last (procler.config.fingerprint), registers
added processes, gives changed ones their new definition and retires removed ones at
once; restarting the changed processes that run, and starting those that should run, is
handed to a task, in dependency order. So no command restarts anything inline, and none
but `reload` (which waits for that task) answers its errors.

Afterwards every process is where a fresh `up` of the new config would put it, for what
the stack was asked: a process should run when its desired state is running, when it
takes the place of one that ran (an instance of a process that gained or lost
`replicas:`, or a sibling of running instances), or when the stack is up (`up` was the
last word on it, not `down`: then what a config adds starts, a schedule it adds is armed,
a one-shot or failed process whose definition changed runs again, and a changed process's
`autostart` decides as `up` does: now true, it starts; now false, a running one stops).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import Any, Protocol

from agentcli.errors import AgentError
from procler import states
from procler.config.fingerprint import ConfigDiff, diff
from procler.config.graph import DependencyGraph
from procler.config.model import ProcessSpec, ProjectConfig, ReplicaSet
from procler.contexts.base import ExecutionContext
from procler.supervisor.clock import Clock
from procler.supervisor.host import background
from procler.supervisor.orchestrate import Blocked, wait_condition
from procler.supervisor.runtime import ProcessRuntime
from procler.supervisor.scheduler import Scheduler
from procler.supervisor.watcher import Watcher

log = logging.getLogger("procler.supervisor")
RELOAD_WAIT = 60.0  # bound on waiting for a dependency's condition while restarting


class Owner(Protocol):
    """What reloading needs from the supervisor."""

    @property
    def clock(self) -> Clock: ...
    @property
    def runtimes(self) -> dict[str, ProcessRuntime]: ...
    @property
    def watcher(self) -> Watcher: ...
    @property
    def schedules(self) -> Scheduler: ...
    @property
    def stack_up(self) -> bool: ...
    def new_runtime(self, spec: ProcessSpec) -> ProcessRuntime: ...
    def context_for(self, spec: ProcessSpec) -> ExecutionContext: ...


@dataclass
class Applied:
    """One config taken up: its diff, and what was done about it."""

    change: ConfigDiff
    restarted: list[str] = field(default_factory=list)
    started: list[str] = field(default_factory=list)
    armed: list[str] = field(default_factory=list)  # schedules armed by this config
    # running processes whose new definition has `autostart: false`, which `up` leaves alone
    quieted: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)  # name -> why

    def as_dict(self) -> dict[str, Any]:
        return {
            **self.change.as_dict(),
            "restarted": self.restarted,
            "started": self.started,
            "armed": self.armed,
            "stopped": [*self.change.removed, *self.quieted],
            "failed": [{"name": n, "error": e} for n, e in self.failed.items()],
        }


class Reloader:
    def __init__(self, sup: Owner) -> None:
        self.sup = sup
        self.applied: dict[str, ProcessSpec] = {}
        self.replica_sets: dict[str, ReplicaSet] = {}  # of the config applied last
        self.generation = 0  # configs taken so far: the first is the boot's own
        self.latest = Applied(ConfigDiff())
        self._work: asyncio.Future[None] | None = None
        self._retiring: set[asyncio.Future[Any]] = set()

    def take(self, cfg: ProjectConfig) -> Applied:
        """Take up a new valid config: the diff is applied at once where no process needs
        (re)starting, the rest by a task queued after the previous reload's."""
        change = diff(self.applied, cfg.processes)
        previous, self.applied = self.applied, dict(cfg.processes)
        sets_before, self.replica_sets = self.replica_sets, dict(cfg.replica_sets)
        self.generation += 1
        runtimes = self.sup.runtimes
        ran = {  # removed ones that ran or should: what takes their place should too
            base_name(previous[n]) for n in change.removed if _wants_to_run(runtimes[n])
        }
        for name in change.added:
            runtimes[name] = self.sup.new_runtime(cfg.processes[name])
        for name in change.changed:
            spec = cfg.processes[name]
            runtimes[name].redefine(spec, self.sup.context_for(spec))  # alive: at its next run
        for name in change.unchanged:
            if previous[name] != cfg.processes[name]:  # only its dependencies' instances
                runtimes[name].retarget(cfg.processes[name])
        for name in change.removed:
            # nobody could address the process any more: stopped and forgotten
            background(self._retire(runtimes.pop(name)), self._retiring)
        for name in change.changed:
            if (
                self.generation > 1
                and previous[name].schedule is None
                and cfg.processes[name].schedule is not None
                and runtimes[name].status in states.ALIVE
            ):  # its run is the old service's, not a run of the schedule: it ends
                background(self._to_schedule(runtimes[name]), self._retiring)
        specs = cfg.processes
        self.latest = applied = Applied(change)
        if self.generation > 1:  # at boot, `Supervisor.boot` restores what should run
            added = [n for n in change.added if self._wanted(cfg, n, change, sets_before, ran)]
            again = [n for n in change.changed if self._again(runtimes[n], previous[n], specs[n])]
            for name in added:
                runtimes[name].desired = states.DESIRED_RUNNING  # a schedule is armed
            applied.quieted = [
                n for n in change.changed if self._quieted(runtimes[n], previous[n], specs[n])
            ]
            for name in applied.quieted:
                reason = "config changed: autostart is off, as `up` leaves it"
                background(self._stopped(runtimes[name], reason), self._retiring)
            # a scheduled process is fired by the scheduler only (a run going on ends first)
            applied.restarted = [
                n
                for n in change.changed
                if specs[n].schedule is None
                and runtimes[n].status in states.ALIVE
                and n not in applied.quieted
            ]
            applied.started = [n for n in (*added, *again) if specs[n].schedule is None]
            applied.armed = [n for n in added if specs[n].schedule is not None]
        self.sup.watcher.update(cfg)
        self.sup.schedules.apply(
            [specs[n] for n in change.added], [specs[n] for n in change.changed], change.removed
        )
        if applied.restarted or applied.started:
            self._work = asyncio.ensure_future(self._apply(cfg, applied, self._work))
        if change.added or change.changed or change.removed:
            log.info("config reloaded: %s", applied.as_dict())
        return applied

    def _wanted(
        self,
        cfg: ProjectConfig,
        name: str,
        change: ConfigDiff,
        sets_before: dict[str, ReplicaSet],
        ran: set[str],
    ) -> bool:
        """An added process should run if its desired state is running, if the stack is up,
        or if it takes the place of a process that ran (`ran`: the removed ones, by the
        name the config gives them); an instance a new `replicas:` value adds also when one
        of the instances it had is wanted running (one that `procler scale` adds is started
        by scale, which waits for it)."""
        runtimes = self.sup.runtimes
        spec = cfg.processes[name]
        up = self.sup.stack_up and spec.autostart  # as `up` leaves autostart: false alone
        if _wants_to_run(runtimes[name]) or up or base_name(spec) in ran:
            return True
        rset = cfg.replica_sets.get(spec.replica_of or "")
        before = None if rset is None else sets_before.get(rset.name)
        if rset is None or before is None or before.declared == rset.declared:
            return False
        return any(_wants_to_run(runtimes[n]) for n in rset.instances if n not in change.added)

    def _again(self, rt: ProcessRuntime, before: ProcessSpec, after: ProcessSpec) -> bool:
        """A changed process at rest runs again when the stack is up and it completed or
        failed, or `up` left it alone before (`autostart: false`) and would start it now;
        or when it should run and waits in backoff."""
        if rt.status == states.BACKOFF:
            return True
        up = self.sup.stack_up and after.autostart
        if up and not before.autostart:
            return rt.status not in states.ALIVE
        return up and rt.status in (states.EXITED, states.FAILED)

    def _quieted(self, rt: ProcessRuntime, before: ProcessSpec, after: ProcessSpec) -> bool:
        """A running process of an up stack whose definition now says `autostart: false`:
        `up` of the new config would leave it stopped, so it stops."""
        return (
            self.sup.stack_up
            and before.autostart
            and not after.autostart
            and rt.status in states.ALIVE
        )

    async def settled(self) -> Applied:
        """Wait until the configs taken so far are applied (removed processes stopped and
        cleaned up too); the latest one's outcome."""
        if self._work is not None:
            await asyncio.shield(self._work)
        if self._retiring:
            await asyncio.gather(*list(self._retiring), return_exceptions=True)
        return self.latest

    async def _apply(
        self, cfg: ProjectConfig, applied: Applied, previous: asyncio.Future[None] | None
    ) -> None:
        if previous is not None:
            await asyncio.wait([previous])  # reloads apply in the order they were taken
        todo = set(applied.restarted) | set(applied.started)
        deadline = self.sup.clock.monotonic() + RELOAD_WAIT
        for level in DependencyGraph.from_config(cfg).start_levels(todo):
            await asyncio.gather(
                *(
                    self._bring_up(cfg.processes[n], applied, todo, deadline)
                    for n in level
                    if n in todo
                )
            )

    async def _bring_up(
        self, spec: ProcessSpec, applied: Applied, todo: set[str], deadline: float
    ) -> None:
        rt = self.sup.runtimes.get(spec.name)
        if rt is None:
            return  # removed by a later reload meanwhile
        for dep in spec.depends_on:
            other = self.sup.runtimes.get(dep.name)
            if dep.name in todo and other is not None:
                with contextlib.suppress(Blocked):  # its own start answers why, below
                    await wait_condition(other, dep, spec.name, deadline)
        try:
            if spec.name in applied.restarted:
                await rt.restart(f"config changed: {', '.join(applied.change.changed[spec.name])}")
            else:
                await rt.start("added by a config reload")
        except AgentError as err:  # the runtime recorded the failed start
            applied.failed[spec.name] = err.message
            return
        if rt.status == states.FAILED:
            applied.failed[spec.name] = str((rt.last_exit or {}).get("reason", "failed"))

    async def _stopped(self, rt: ProcessRuntime, reason: str) -> bool:
        """Stop rt from a background task: False when it failed (logged: nobody else would
        see the error)."""
        try:
            await rt.stop(reason)
        except Exception:
            log.exception("%s: stopping it (%s) failed", rt.name, reason)
            return False
        return True

    async def _to_schedule(self, rt: ProcessRuntime) -> None:
        reason = "config changed: now run by its schedule"
        if await self._stopped(rt, reason):
            self.sup.schedules.await_slot(rt.name, reason)

    async def _retire(self, rt: ProcessRuntime) -> None:
        try:
            await rt.stop("definition removed")
            dropped = await rt.context.forget(rt.spec)
        except Exception:  # a background task: nobody else would see the error
            log.exception("%s: retiring the removed process failed", rt.name)
            return
        if dropped:
            log.info("%s: removed container(s) %s", rt.name, ", ".join(d[:12] for d in dropped))


def base_name(spec: ProcessSpec) -> str:
    """The name the config gives a process (an instance's: its process's)."""
    return spec.replica_of or spec.name


def _wants_to_run(rt: ProcessRuntime) -> bool:
    return rt.desired == states.DESIRED_RUNNING or rt.status in states.ALIVE
