"""What a watch trigger does: restart the process (and, with `cascade`, what depends on
it), send it a signal, or run a command; and the flap detector.

A process that writes into its own watched folder retriggers its watch right after each
restart. A trigger whose first change came while the watch's own action ran, or within
FLAP_WINDOW after it, counts as quick; FLAP_LIMIT quick triggers in a row suspend the
watch, naming the file, until a user start or restart.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from agentcli.errors import AgentError
from procler import states
from procler.config.graph import DependencyGraph
from procler.config.model import ProcessSpec, WatchSpec
from procler.contexts.base import ExecutionContext, RunningProcess, signal_number
from procler.supervisor.clock import Clock
from procler.supervisor.host import RuntimeHost
from procler.supervisor.oneshot import run_once
from procler.supervisor.runtime import ProcessRuntime
from procler.supervisor.sentinel_link import Sentinel, register, unregister
from procler.supervisor.watch_filter import PathFilter

log = logging.getLogger("procler.supervisor")
FLAP_WINDOW = 2.0  # seconds after the watch's own action in which a change counts as quick
FLAP_LIMIT = 3  # quick triggers in a row that suspend the watch
EXEC_TIMEOUT = 60.0  # bound on an `exec:` action


class Owner(Protocol):
    """What watching needs from the supervisor."""

    @property
    def clock(self) -> Clock: ...
    @property
    def host(self) -> RuntimeHost: ...
    @property
    def sentinel(self) -> Sentinel: ...
    @property
    def runtimes(self) -> dict[str, ProcessRuntime]: ...
    def context_for(self, spec: ProcessSpec) -> ExecutionContext: ...


@dataclass
class Watch:
    """One process's watch and what it has done."""

    spec: WatchSpec
    filter: PathFilter
    triggers: int = 0
    last_files: list[str] = field(default_factory=list)
    last_at: float | None = None
    suspended_by: str | None = None  # the file that kept retriggering it
    quick: int = 0  # triggers in a row that came right after the watch's own action
    acting: bool = False
    acted_until: float | None = None  # monotonic end of the last action
    pending: set[str] = field(default_factory=set)
    first_seen: float | None = None  # monotonic time of the pending burst's first change
    timer: asyncio.TimerHandle | None = None


async def act(
    sup: Owner,
    specs: Mapping[str, ProcessSpec],
    name: str,
    watch: Watch,
    files: list[str],
    first: float,
) -> None:
    """One trigger of name's watch: files changed, the first at monotonic time `first`."""
    rt = sup.runtimes.get(name)
    if rt is None or watch.suspended_by is not None or rt.desired != states.DESIRED_RUNNING:
        return  # stopped (disarmed), or suspended
    quick = watch.acting or (
        watch.acted_until is not None and first <= watch.acted_until + FLAP_WINDOW
    )
    watch.quick = watch.quick + 1 if quick else 0
    if watch.quick >= FLAP_LIMIT:
        watch.suspended_by = files[0]
        sup.host.record(
            rt, rt.status, rt.status, f"watch suspended: {files[0]} keeps retriggering it"
        )
        return
    watch.triggers += 1
    watch.last_files, watch.last_at = files, sup.clock.time()
    more = f" (and {len(files) - 1} more)" if len(files) > 1 else ""
    reason = f"watch: {files[0]}{more} changed"
    watch.acting = True
    try:
        await _perform(sup, rt, watch.spec.action, reason)
        if watch.spec.cascade:
            await _cascade(sup, specs, name, reason)
    except AgentError as err:  # the runtime recorded a failed start
        log.info("%s: %s: %s", name, reason, err.message)
    finally:
        watch.acting, watch.acted_until = False, sup.clock.monotonic()


async def _perform(sup: Owner, rt: ProcessRuntime, action: str, reason: str) -> None:
    kind, _, arg = action.partition(":")
    if kind == "restart":
        await rt.restart(reason)
    elif kind == "signal":
        if rt.proc is not None and rt.status in states.ALIVE:
            await rt.context.signal(rt.proc, signal_number(arg))
            sup.host.record(
                rt, rt.status, rt.status, f"{reason}: sent SIG{arg.removeprefix('SIG')}"
            )
    else:
        await _run(sup, rt, arg, reason)


async def _run(sup: Owner, rt: ProcessRuntime, command: str, reason: str) -> None:
    """`exec:COMMAND`: run it to its end (bounded) in the process's cwd and environment."""
    spec = ProcessSpec(name=rt.name, command=command, cwd=rt.spec.cwd, env=rt.spec.env)
    spawned: list[RunningProcess] = []

    def track(proc: RunningProcess) -> None:  # the sentinel kills it too if we die
        spawned.append(proc)
        register(sup.sentinel, proc, True)

    try:
        result = await run_once(
            sup.context_for(spec), spec, sup.host.environment(spec), EXEC_TIMEOUT, track
        )
    finally:
        for proc in spawned:
            unregister(sup.sentinel, proc)
    ended = "timed out" if result.timed_out else f"exit code {result.exit_code}"
    sup.host.record(rt, rt.status, rt.status, f"{reason}: ran `{command}`: {ended}")


async def _cascade(sup: Owner, specs: Mapping[str, ProcessSpec], name: str, reason: str) -> None:
    """Restart what depends on name (transitively) that runs, in dependency order."""
    graph = DependencyGraph({n: [d.name for d in s.depends_on] for n, s in specs.items()})
    dependents = set(graph.dependents(name))
    for level in graph.start_levels(dependents):
        for other in level:
            rt = sup.runtimes.get(other)
            if other in dependents and rt is not None and rt.status in states.ALIVE:
                await rt.restart(f"{reason} in {name} (cascade)")
