"""The runtimes' Host: what each ProcessRuntime needs from the supervisor around it.

It gives a run its environment, persists every transition, health move and exit (and follows it to the
dependents: `dependency_down`, `depends_on: {restart: true}`), tells the sentinel which
runs exist, and sends the output to the log; transitions, health moves and output lines
also go to the event bus (events.py).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Coroutine
from typing import Any

from agentcli.errors import AgentError
from procler import states
from procler.config.model import Dependency, ProcessSpec
from procler.contexts import registry
from procler.contexts.base import OutputBatch, RunningProcess, signal_number
from procler.supervisor.clock import Clock
from procler.supervisor.event_bus import EventBus
from procler.supervisor.output_log import OutputLog
from procler.supervisor.runtime import ProcessRuntime
from procler.supervisor.sentinel_link import Sentinel, register, unregister
from procler.supervisor.state_store import StateStore

log = logging.getLogger("procler.supervisor")


def base_environment(store: StateStore) -> dict[str, str]:
    """The environment captured when the project's first supervisor started."""
    saved = store.get_meta("base_env")
    if saved is None:
        saved = {k: v for k, v in os.environ.items() if not k.startswith("PROCLER_")}
        store.set_meta("base_env", saved)
    return dict(saved)


class RuntimeHost:
    def __init__(
        self,
        root: str,
        store: StateStore,
        clock: Clock,
        sentinel: Sentinel,
        output: OutputLog,
        runtimes: dict[str, ProcessRuntime],
        events: EventBus,
    ) -> None:
        self.root = root
        self.events = events
        self.runtimes = runtimes  # the supervisor's, by name: the dependents to tell
        self.store = store
        self.clock = clock
        self.sentinel = sentinel
        self.output_log = output
        self.base_env = base_environment(store)
        self._restarting: set[asyncio.Future[Any]] = set()  # dependents, after a dependency
        # The runtimes with a `restart: true` dependency, found again after a spec changed:
        # every status change looks them up, and scanning 1,000 runtimes each time is not free.
        self._watchers: list[ProcessRuntime] | None = None

    def specs_changed(self) -> None:
        """A runtime was made or took a new definition."""
        self._watchers = None

    def _restart_watchers(self) -> list[ProcessRuntime]:
        if self._watchers is None:
            self._watchers = [
                rt for rt in self.runtimes.values() if any(d.restart for d in rt.spec.depends_on)
            ]
        return self._watchers

    def environment(self, spec: ProcessSpec) -> dict[str, str]:
        env = dict(self.base_env)
        env.update(spec.env)
        env["PROCLER_PROCESS_NAME"] = spec.name
        env["PROCLER_PROJECT_ROOT"] = self.root
        return env

    def record(self, runtime: ProcessRuntime, src: str, dst: str, reason: str) -> None:
        log.info("%s: %s -> %s (%s)", runtime.name, src, dst, reason)
        # A start is the next run's: the runtime counts the run once its process exists.
        starting = dst == states.STARTING and src != dst
        self.store.event(runtime.name, src, dst, reason, runtime.run + starting)
        self._save(runtime)
        if src != dst:
            self.events.status(runtime.name, src, dst, reason)
            self._tell_dependents(runtime, dst)

    def _save(self, runtime: ProcessRuntime) -> None:
        self.store.save_process(
            runtime.name,
            runtime.desired,
            runtime.run,
            runtime.restarts,
            runtime.last_exit,
            runtime.completed_hash,
        )

    def health(self, runtime: ProcessRuntime, src: str, dst: str, reason: str) -> None:
        self.store.health_event(runtime.name, runtime.run, src, dst, reason)
        self.events.health(runtime.name, src, dst, reason)

    def exited(self, runtime: ProcessRuntime, run: int | None) -> None:
        assert runtime.last_exit is not None
        self.store.exit_event(runtime.name, run, runtime.status, runtime.last_exit)

    def spawned(self, runtime: ProcessRuntime, proc: RunningProcess) -> None:
        self.store.run_started(runtime.name, runtime.run, proc.pid, self.clock.time())
        # The run count now, not at the next transition: `procler logs` reads it to tell
        # the current run from the previous one, and a start can take long to settle.
        self._save(runtime)
        spec = runtime.spec
        command = spec.stop_command
        register(
            self.sentinel,
            proc,
            registry.kind(spec.context).on_host,
            (signal_number(spec.stop_signal), spec.stop_timeout),
            None
            if command is None
            else {
                "command": command.command,
                "cwd": spec.cwd,
                "env": self.environment(spec),
                "timeout": command.bound(spec.stop_timeout),
            },
        )
        self.output_log.prepare(runtime.name)

    def reaped(self, runtime: ProcessRuntime, proc: RunningProcess) -> None:
        self.store.run_ended(runtime.name, runtime.run, self.clock.time())
        unregister(self.sentinel, proc)

    def output(self, runtime: ProcessRuntime, run: int, batch: OutputBatch) -> None:
        self.output_log.append(runtime.name, run, batch)
        self.events.log_lines(runtime.name, run, batch.stream, batch.texts, batch.ts)

    # -- dependencies ---------------------------------------------------------------------

    def dependency_down(self, runtime: ProcessRuntime) -> tuple[str, str, list[str]] | None:
        """(name, why, path) of the dependency that died or was stopped, while runtime runs
        or should run: a direct one first, else the first found further down the chain
        (path: runtime -> ... -> name, the root cause); None when none is down. A one-shot
        that completed is not down, and what it depended on no longer matters."""
        return self._down_below(runtime, [runtime.name])

    def _down_below(
        self, runtime: ProcessRuntime, path: list[str]
    ) -> tuple[str, str, list[str]] | None:
        if runtime.status in states.AT_REST and runtime.desired != states.DESIRED_RUNNING:
            return None
        chain = "" if len(path) == 1 else f" ({' -> '.join(path)} -> "
        for dep in runtime.spec.depends_on:
            if dep.min is not None:
                few = self._too_few_up(runtime, dep)
                if few is not None:
                    via = chain and f"{chain}{few[0]})"
                    why = f"{few[1]}; {runtime.name} needs them {dep.condition}{via}"
                    return few[0], why, [*path, few[0]]
                continue
            other = self.runtimes.get(dep.name)
            if other is not None and states.dependency_down(dep.condition, other.status):
                reason = (
                    (other.last_exit or {}).get("reason")
                    if other.status != states.STOPPING
                    else None
                )
                why = f"{dep.name} is {other.status}" + (f" ({reason})" if reason else "")
                why += f"; {runtime.name} needs it {dep.condition}" + (
                    chain and f"{chain}{dep.name})"
                )
                return dep.name, why, [*path, dep.name]
        for dep in runtime.spec.depends_on:
            other = self.runtimes.get(dep.name)
            if other is not None and dep.name not in path:
                found = self._down_below(other, [*path, dep.name])
                if found is not None:
                    return found
        return None

    def _too_few_up(self, runtime: ProcessRuntime, dep: Dependency) -> tuple[str, str] | None:
        """`depends_on: {name, min}`: (process, why) when fewer than min instances are up."""
        base = dep.replica_of or dep.name
        members = [d.name for d in runtime.spec.depends_on if (d.replica_of or d.name) == base]
        statuses = [rt.status for n in members if (rt := self.runtimes.get(n)) is not None]
        if not states.enough_down(dep.condition, statuses, dep.min or len(members)):
            return None
        return base, f"fewer than {dep.min} of {base}'s instances are up"

    def _tell_dependents(self, dep: ProcessRuntime, status: str) -> None:
        """`depends_on: {restart: true}`: a dependent that should run is restarted when the
        dependency comes back (meets its condition again after it died or was stopped)."""
        for runtime in self._restart_watchers():
            for wanted in runtime.spec.depends_on:
                if wanted.name != dep.name or not wanted.restart:
                    continue
                if (
                    states.dependency_down(wanted.condition, status)
                    and runtime.desired == states.DESIRED_RUNNING
                ):
                    runtime.waiting_for.add(dep.name)
                elif (
                    states.dependency_met(wanted.condition, status, dep.log_ready)
                    and dep.name in runtime.waiting_for
                ):
                    runtime.waiting_for.discard(dep.name)
                    if runtime.desired == states.DESIRED_RUNNING or runtime.status == states.FAILED:
                        background(self._restart_dependent(runtime, dep.name), self._restarting)

    async def _restart_dependent(self, runtime: ProcessRuntime, dep: str) -> None:
        try:
            await runtime.restart(f"restarted: its dependency {dep} came back")
        except AgentError as err:  # the runtime recorded the failed start
            log.info("%s: restart after %s came back failed: %s", runtime.name, dep, err.message)


def background(work: Coroutine[Any, Any, object], tasks: set[asyncio.Future[Any]]) -> None:
    """Run work on the loop (its result dropped), holding a reference in tasks until done."""
    task = asyncio.ensure_future(work)
    tasks.add(task)
    task.add_done_callback(tasks.discard)
