"""The supervisor's typed seam: what its commands, recipes and MCP tools ask of the engine.

One method per act (start, stop, restart, wait, scale, a one-off command, a schedule armed
or paused ...), each with typed arguments. They answer status rows (`Row`: one process's
answer, the shape `procler status` prints) or small typed results, and raise the typed
errors of procler.errors. Nothing here reads a command's values or shapes its answer:
supervisor/commands/ turns each request into one call here and shapes what it returns.
The engine below (core.Supervisor, the runtimes, orchestrate, the scheduler) never calls
back up.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from agentcli.errors import AgentError, UsageError
from procler import states
from procler.config.findings import Findings
from procler.config.graph import DependencyGraph
from procler.config.keys import MAX_REPLICAS
from procler.config.load import check_config, invalid
from procler.config.model import ContainerSpec, Dependency, ProcessSpec, ProjectConfig, Snippet
from procler.config.scaling import read_scale, write_scale
from procler.contexts import registry
from procler.contexts.base import OutputBatch, RunningProcess
from procler.errors import (
    CommandFailed,
    ConditionImpossible,
    ConfirmationRequired,
    InvalidArgument,
    NotReplicated,
    NotScheduled,
    ProcessNotFound,
    SnippetNotFound,
    StartFailed,
    SupervisorUnavailable,
    Timeout,
)
from procler.logs.query import query
from procler.selection import (
    autostarted,
    expand,
    group_members,
    in_namespaces,
    instances,
    stop_levels,
)
from procler.snippet_fill import ArgumentInvalid, fill
from procler.supervisor import readiness
from procler.supervisor.clock import Clock
from procler.supervisor.core import Supervisor
from procler.supervisor.oneshot import run_once
from procler.supervisor.orchestrate import start_plan, stop_plan
from procler.supervisor.ports import listening, refuse_taken
from procler.supervisor.runtime import ProcessRuntime
from procler.supervisor.sampler import ProcessSampler
from procler.supervisor.sentinel_link import register, unregister
from procler.supervisor.state_store import StateStore
from procler.supervisor.status import described, supervisor_status
from procler.supervisor.waiting import together, wait_members

Row = dict[str, Any]  # one process's status answer (status.process_status and what follows)
START_WAIT = 60.0  # default bound on a start waiting for its dependencies and health check
RUN_NOW_WAIT = 30.0  # default bound on a schedule's manual run waiting for its start
PORT_POLL = 0.02  # seconds between looks at the ports of a wait for ports
MAX_SEND = 64 * 1024  # bytes one `send` writes to a process's stdin
SEND_WAIT = 5.0  # bound on a `send` waiting for room in the process's stdin pipe
RESUMED = (
    "start armed the schedule: it runs at its slots (`procler schedule run-now {}` runs it now)"
)
PAUSED = "stop paused the schedule: no slot fires until `procler start {}` or `schedule resume`"


def listed_after(cfg: ProjectConfig, listed: tuple[str, ...]) -> dict[str, tuple[Dependency, ...]]:
    """A group's list order as dependencies (`started`) of each process (every instance)
    on the one listed before it, where depends_on does not order them already."""
    added, _ = DependencyGraph.as_written(cfg.processes).listed_order(listed)
    sets = cfg.replica_sets

    def each(name: str) -> tuple[str, ...]:  # a group's members exist: the config says so
        return sets[name].instances if name in sets else (name,)

    after: dict[str, tuple[Dependency, ...]] = {}
    for earlier, later in added:
        waits = tuple(Dependency(name=n, condition="started") for n in each(earlier))
        for name in each(later):
            after[name] = after.get(name, ()) + waits
    return after


@dataclass(frozen=True)
class Scaled:
    """What `scale` did: the instances it runs now, those it added and removed."""

    name: str
    replicas: int
    previous: int
    added: list[str]
    removed: list[str]
    instances: list[Row]


@dataclass(frozen=True)
class NamespaceStopped:
    """The processes stopped, and those kept because a process outside needs them."""

    stopped: list[Row]
    kept: list[Row]  # each with needed_by


class Operations:
    def __init__(self, sup: Supervisor) -> None:
        self._sup = sup
        self._sampler = ProcessSampler()  # one for every answer: cpu_percent between calls
        # called when the supervisor stops for good (`daemon stop`), before it stops: what
        # the next supervisor must not take up (`procler serve`'s listener settings)
        self._for_good: list[Callable[[], None]] = []

    # -- what there is --------------------------------------------------------------------

    def config(self) -> ProjectConfig:
        """The running config (the last valid one while the file is broken)."""
        return self._sup.config()

    @property
    def clock(self) -> Clock:
        return self._sup.clock

    def status_of(self, name: str) -> str:
        """A process's status (PROCESS_NOT_FOUND for a name the config lacks)."""
        return self._sup.runtime(name).status

    def completed(self, name: str) -> bool:
        """The process is a one-shot that completed in this session with its definition
        (`start` and `up` leave it alone; `--rerun` runs it again)."""
        rt = self._sup.runtime(name)
        return states.done_for_up(rt.status, rt.completed_spec == rt.spec)

    def describe(self, name: str) -> Row:
        """A process's status answer: status, pid, resources, and its output, watch and
        schedule state when it has one."""
        return self._row(self._sup.runtimes[name])

    def _row(self, rt: ProcessRuntime) -> Row:
        return described(self._sup, rt, self._sampler)

    async def send(self, name: str, text: str, *, newline: bool = True) -> dict[str, Any]:
        """Write text (and a newline) to a process's stdin (`stdin: true`): the bytes
        written, and the run they went to."""
        rt = self._sup.runtime(name)
        data = (text + ("\n" if newline else "")).encode("utf-8")
        if len(data) > MAX_SEND:
            raise UsageError(
                f"{len(data)} bytes to send: at most {MAX_SEND} at a time",
                suggestion="send it in parts",
            )
        written = await rt.send(data, SEND_WAIT)
        return {"name": rt.name, "bytes": written, "run": rt.run}

    def why(self, name: str) -> dict[str, Any]:
        """Why a process (or each instance of one with replicas) is or is not running."""
        from procler.supervisor.why import why_named

        return why_named(self._sup, name)

    def history(self, name: str, limit: int) -> dict[str, Any]:
        from procler.supervisor.history import history_named

        return history_named(self.config(), self._sup.store, name, limit)

    # -- starting -------------------------------------------------------------------------

    async def start(
        self,
        names: list[str],
        *,
        with_deps: bool = True,
        timeout: float = START_WAIT,
        rerun: bool = False,
        listed: tuple[str, ...] = (),
    ) -> list[Row]:
        """Start these processes after what they depend on (unless not with_deps), then
        settle, all within timeout. A one-shot that completed in this session with the
        same definition is left alone (rerun runs it again). A process that runs is left as
        it is, and so is everything else for it: starting it touches none of its
        dependencies. listed: a group's members in its list order, which the start follows
        too (each once the one before has started), as Procler 0.3 started a group."""
        cfg = self.config()
        graph = DependencyGraph.from_config(cfg)
        after = listed_after(cfg, listed)
        self._sup.keeper.refuse_changed(graph.start_order(names) if with_deps else names)
        deadline = self.clock.monotonic() + timeout  # --timeout bounds the whole start
        running = [n for n in names if self._sup.runtimes[n].status in states.ALIVE]
        for name in running:
            await self._sup.runtimes[name].settled()  # a start in flight ends first
        running = [n for n in running if self._sup.runtimes[n].status in states.ALIVE]
        todo = [n for n in names if n not in running]
        outcomes: dict[str, dict[str, Any]] = {
            n: {"name": n, "already_running": True} for n in running
        }
        if todo:
            planned = await start_plan(
                self._sup.runtimes,
                graph,
                todo,
                lambda n: cfg.processes[n].depends_on + after.get(n, ()),
                lambda rt: self._start_one(rt, keep_completed=not rerun),
                timeout,
                with_deps=with_deps,
                describe=self._described,
            )
            outcomes = {**outcomes, **{o["name"]: o for o in planned}}
        order = graph.start_order(names) if with_deps else names
        ordered = [outcomes[n] for n in order if n in outcomes]
        return await self.settle(ordered, max(0.0, deadline - self.clock.monotonic()))

    async def restart(
        self, names: list[str], *, timeout: float = START_WAIT, clear_logs: bool = False
    ) -> list[Row]:
        """Stop (if running) and start each, always a new run; clear_logs removes the old
        runs' logs in between."""
        self._sup.keeper.refuse_changed(names)
        deadline = self.clock.monotonic() + timeout  # --timeout bounds the whole command
        rts = [self._sup.runtimes[n] for n in names]
        if clear_logs:
            started = await together([self._restart_clean(rt) for rt in rts])
        else:
            started = await together([self._start_one(rt, restart=True) for rt in rts])
        return await self.settle(list(started), max(0.0, deadline - self.clock.monotonic()))

    async def _start_one(
        self, rt: ProcessRuntime, restart: bool = False, keep_completed: bool = False
    ) -> dict[str, Any]:
        """What starting did (its name and flags): the status is described once, when the
        start has settled (settle), not per step, which `up` of 1,000 processes felt."""
        if rt.name in self._sup.schedules.entries:
            return await self._arm_on_start(rt, restart)
        if not restart and rt.status in states.ALIVE:
            await rt.settled()  # a start in flight ends first: the answer has its pid
            if rt.status in states.ALIVE:
                return {"name": rt.name, "already_running": True}
        if keep_completed and states.done_for_up(rt.status, rt.completed_spec == rt.spec):
            return {"name": rt.name, "already_completed": True}
        if not (restart and rt.status in states.ALIVE):
            refuse_taken(rt.name, rt.spec.ports, self._sup.root)
        self._sup.watcher.rearm(rt.name)
        result = await (rt.restart() if restart else rt.start())
        self._refuse_failed(rt)
        return {"name": rt.name, **result}

    async def _restart_clean(self, rt: ProcessRuntime) -> dict[str, Any]:
        """restart --clear-logs: the old run stopped, its logs removed, a new run started."""
        await rt.stop("restart requested (clearing logs)")
        self._sup.output.clear(rt.name)
        return await self._start_one(rt)

    def _refuse_failed(self, rt: ProcessRuntime) -> None:
        if rt.status == states.FAILED:
            raise StartFailed(
                f"{rt.name} failed during start: {(rt.last_exit or {}).get('reason', '')}",
                data={**self._row(rt), "stderr": list(rt.recent_stderr)},
            )

    async def settle(self, outcomes: list[dict[str, Any]], timeout: float) -> list[Row]:
        """Wait (bounded) until each process just started is known good (its health check
        passed) or known bad; a failed one raises START_FAILED. Dependents with condition
        `started` did not wait for this. Each outcome becomes its process's row."""
        fresh = [
            self._sup.runtimes[o["name"]]
            for o in outcomes
            if not (o.get("already_running") or o.get("already_completed"))
        ]
        await together(
            [
                rt.wait_until(
                    lambda r: states.start_settled(r.status, r.spec.healthcheck is not None),
                    timeout,
                )
                for rt in fresh
            ]
        )
        for rt in fresh:
            self._refuse_failed(rt)
        return [self._described(o) for o in outcomes]

    def _described(self, outcome: dict[str, Any]) -> Row:
        """The process's status now, with what its start said after it (already_running...)."""
        now = self._row(self._sup.runtimes[outcome["name"]])
        return {**now, **outcome, **now}

    async def up_and_wait(
        self, names: list[str], *, timeout: float = START_WAIT, rerun: bool = False
    ) -> list[Row]:
        """Start these (dependency order), then wait until each process started is ready
        (procler.states.ready), all within timeout: each row with `ready`. TIMEOUT, or
        CONDITION_IMPOSSIBLE as soon as one cannot get ready, naming it (data.not_ready:
        status, condition, why, stderr)."""
        deadline = self.clock.monotonic() + timeout  # --timeout bounds the whole command
        started = await self.start(names, timeout=timeout, rerun=rerun)
        # what was started (with a namespace: the selection and what it depends on)
        rts = [self._sup.runtimes[p["name"]] for p in started]
        left = max(0.0, deadline - self.clock.monotonic())
        await self._unless_stopping(readiness.settled(rts, left), "during up --wait")
        members = [{**self._row(rt), "ready": readiness.ready(rt)} for rt in rts]
        missing = [rt for rt in rts if not readiness.ready(rt)]
        if not missing:
            return members
        # The wait ends early when one process cannot get ready: that one is the answer.
        missing = [rt for rt in missing if readiness.why_not(rt)] or missing
        not_ready = [
            {
                "name": rt.name,
                "status": rt.status,
                "condition": readiness.condition(rt),
                "why": readiness.why_not(rt) or f"not {readiness.condition(rt)} after {timeout:g}s",
                "last_exit": rt.last_exit,
                "stderr": list(rt.recent_stderr)[-readiness.LOG_LINES :],
            }
            for rt in missing
        ]
        first = not_ready[0]
        message = f"{first['name']} is {first['status']}, not {first['condition']}: {first['why']}"
        if len(missing) > 1:
            message += f" (and {len(missing) - 1} more)"
        error = ConditionImpossible if any(readiness.why_not(rt) for rt in missing) else Timeout
        raise error(
            message,
            suggestion=f"read data.not_ready; `procler logs {first['name']} --run last-failed`",
            data={"ready": False, "processes": members, "not_ready": not_ready},
        )

    async def ci(self, *, timeout: float = START_WAIT) -> list[Row]:
        """up_and_wait of every process, then every process stopped, whatever the outcome
        (an error says `stopped: true` in its data)."""
        try:
            every = autostarted(self.config(), list(self.config().processes))
            ready = await self.up_and_wait(every, timeout=timeout)
        except AgentError as err:
            await self.stop(list(self.config().processes), with_dependents=True)
            err.data = {**(err.data or {}), "stopped": True}
            raise
        await self.stop(list(self.config().processes), with_dependents=True)
        return ready

    # -- stopping -------------------------------------------------------------------------

    async def stop(
        self, names: list[str], *, with_dependents: bool = False, kill: bool = False
    ) -> list[Row]:
        """Stop these processes (and what depends on them, with_dependents), dependents
        first; a scheduled one has its schedule paused. With kill, SIGKILL each at once (no
        order to keep), also cutting short a stop already waiting out its stop_timeout."""
        levels = stop_levels(DependencyGraph.from_config(self.config()), names, with_dependents)
        if kill:
            named = [n for level in levels for n in level]
            return await together([self._stop_one(self._sup.runtimes[n], kill) for n in named])
        return await stop_plan(self._sup.runtimes, levels, self._stop_one)

    def running(self) -> list[str]:
        """The processes alive now (what a stop leaves running: `dependents_running`)."""
        return [n for n, rt in self._sup.runtimes.items() if rt.status in states.ALIVE]

    async def _stop_one(self, rt: ProcessRuntime, kill: bool = False) -> Row:
        if rt.name in self._sup.schedules.entries:
            return await self._pause_on_stop(rt, kill)
        result = await rt.stop(kill=kill)
        self._sup.reap_orphans()
        return {**self._row(rt), **result}

    # -- groups and namespaces ------------------------------------------------------------

    async def start_group(
        self, group: str, *, with_deps: bool = True, timeout: float = START_WAIT
    ) -> list[Row]:
        """A group's members started after what they depend on, and in the group's list
        order (Procler 0.3's start order: each once the one listed before it has started);
        not the `autostart: false` ones, unless one started depends on them."""
        cfg = self.config()
        members = autostarted(cfg, group_members(cfg, group))
        kept = set(members)
        listed = tuple(
            n for n in cfg.groups[group].processes if kept.intersection(expand(cfg, [n]))
        )
        return await self.start(members, with_deps=with_deps, timeout=timeout, listed=listed)

    async def stop_group(self, group: str) -> list[Row]:
        """A group's members stopped: those its stop_order names (Procler 0.3) one by one
        in that order, then the rest, dependents first."""
        cfg = self.config()
        members = group_members(cfg, group)
        ordered = expand(cfg, cfg.groups[group].stop_order)
        outcomes = [await self._stop_one(self._sup.runtimes[n]) for n in ordered]
        rest = [m for m in members if m not in ordered]
        return outcomes + (await self.stop(rest) if rest else [])

    def group_rows(self, group: str) -> list[Row]:
        return [self.describe(n) for n in group_members(self.config(), group)]

    async def stop_namespaces(self, namespaces: list[str]) -> NamespaceStopped:
        """Stop the namespaces' processes, dependents first; one that a process outside
        them needs (running, or wanted running) is kept."""
        cfg = self.config()
        chosen = in_namespaces(cfg, namespaces)
        inside = set(chosen)
        graph = DependencyGraph.from_config(cfg)
        kept: dict[str, list[str]] = {}
        for name in chosen:
            needed_by = [d for d in graph.dependents(name) if d not in inside and self._wanted(d)]
            if needed_by:
                kept[name] = needed_by
        stopped = await self.stop([n for n in chosen if n not in kept])
        rows = [{**self.describe(n), "needed_by": by} for n, by in kept.items()]
        return NamespaceStopped(stopped, rows)

    def _wanted(self, name: str) -> bool:
        rt = self._sup.runtimes[name]
        return rt.desired == states.DESIRED_RUNNING or rt.status in states.ALIVE

    async def scale(self, name: str, count: int, *, timeout: float = START_WAIT) -> Scaled:
        """NAME runs COUNT instances: the count is written beside the runtime definitions
        and the config read again; new instances start when the process is wanted running,
        those past the count are retired (stopped gracefully, in parallel)."""
        sup = self._sup
        sup.keeper.refuse_reload()  # the count is applied by reading the config again
        cfg = sup.config()
        rset = cfg.replica_sets.get(name)
        if rset is None:
            if name not in cfg.processes:
                raise ProcessNotFound.among(name, [*cfg.replica_sets, *cfg.processes])
            raise NotReplicated(f"{name} has no `replicas:` in the config, so it has no instances")
        if not 1 <= count <= MAX_REPLICAS:
            raise NotReplicated(
                f"cannot scale {name} to {count}",
                suggestion=f"give a count from 1 to {MAX_REPLICAS} (`procler stop {name}` stops all)",
            )
        before = list(rset.instances)
        wanted = any(self._wanted(n) for n in before)
        # a damaged file made the config invalid already (refused above)
        counts = read_scale(sup.root, Findings(""))
        counts[name] = {"declared": rset.declared, "count": count}
        checked, findings = check_config(sup.config_path, scale=counts)
        if findings or checked is None:
            raise invalid(findings)  # e.g. a new instance's name or port collides: nothing written
        write_scale(sup.root, counts)
        now = sup.keeper.read_again().replica_sets[name]
        await sup.settle()  # the instances past the count are stopped and forgotten
        added = [n for n in now.instances if n not in before]
        if added and wanted:
            await self.start(added, timeout=timeout)
        removed = [n for n in before if n not in now.instances]
        rows = [self.describe(n) for n in now.instances]
        return Scaled(name, count, len(before), added, removed, rows)

    # -- waiting --------------------------------------------------------------------------

    def left_alone(self, names: list[str]) -> list[str]:
        """Those of names `autostart: false` keeps at rest (nothing asked them to run)."""
        return [
            n
            for n in names
            if states.left_alone(
                (rt := self._sup.runtimes[n]).spec.autostart, rt.status, rt.desired
            )
        ]

    async def wait(
        self, names: list[str], condition: str, timeout: float, *, together: bool = False
    ) -> list[Row]:
        """Until every process meets the condition (`wait --for`): each row with
        condition_met. TIMEOUT at the deadline; CONDITION_IMPOSSIBLE as soon as one cannot
        meet it any more. together (a group, --all) and healthy: ready, as `up --wait` and
        `ci` mean it (procler.states.ready). An error's data holds processes, not_met (and
        impossible)."""
        rts = [self._sup.runtimes[n] for n in names]
        stack = together and condition == states.HEALTHY

        def met(rt: ProcessRuntime) -> bool:
            return readiness.ready(rt) if stack else states.wait_met(condition, rt.status)

        def why_not(rt: ProcessRuntime) -> str | None:
            if stack:
                return readiness.why_not(rt)
            has_check = rt.spec.healthcheck is not None
            return states.wait_impossible(condition, rt.status, rt.desired, has_check)

        waiting = (
            readiness.settled(rts, timeout) if stack else wait_members(rts, met, why_not, timeout)
        )
        await self._unless_stopping(waiting, f"while waiting for {condition}")
        members = [{**self._row(rt), "condition_met": met(rt)} for rt in rts]
        missing = [rt.name for rt in rts if not met(rt)]
        if not missing:
            return members
        data: dict[str, Any] = {"processes": members, "not_met": missing}
        impossible = {rt.name: why for rt in rts if (why := why_not(rt)) is not None}
        if impossible:
            raise ConditionImpossible(
                f"cannot be {condition}: "
                + "; ".join(f"{name}: {why}" for name, why in impossible.items()),
                data={**data, "impossible": impossible},
            )
        raise Timeout(
            f"not {condition} after {timeout:g}s: "
            + ", ".join(f"{rt.name} is {rt.status}" for rt in rts if rt.name in missing),
            data=data,
        )

    async def wait_for(self, name: str, condition: str, timeout: float) -> str:
        """Until a process meets a depends_on condition (a recipe's wait_for step;
        `running` is `started`): its status then; CONDITION_IMPOSSIBLE when it cannot any
        more, TIMEOUT at the end."""
        rt = self._sup.runtime(name)
        checked = "started" if condition == "running" else condition

        def met(r: ProcessRuntime) -> bool:
            return states.dependency_met(checked, r.status, r.log_ready)

        def why_not(r: ProcessRuntime) -> str | None:
            return f"it is {r.status}" if states.dependency_impossible(checked, r.status) else None

        await wait_members([rt], met, why_not, timeout)
        if met(rt):
            return rt.status
        reason = why_not(rt)
        if reason is not None:
            raise ConditionImpossible(f"{rt.name} cannot be {condition}: {reason}")
        raise Timeout(f"{rt.name} not {condition} after {timeout:g}s: it is {rt.status}")

    async def wait_for_ports(self, name: str, timeout: float) -> tuple[int, ...]:
        """Until every declared port of the process is listening (a recipe's wait_for
        port): its ports. A port opening is no status change, so they are looked up every
        PORT_POLL seconds, bounded by the timeout (the end of the process ends the wait at
        once: CONDITION_IMPOSSIBLE)."""
        rt = self._sup.runtime(name)
        deadline = rt.clock.monotonic() + timeout
        while True:
            closed = [port for port in rt.spec.ports if not listening(port)]
            if not closed:
                return rt.spec.ports
            if rt.status in states.AT_REST:
                raise ConditionImpossible(
                    f"{rt.name} will not open port {closed[0]}: it is {rt.status}"
                )
            left = deadline - rt.clock.monotonic()
            if left <= 0:
                raise Timeout(f"{rt.name}: port {closed[0]} not listening after {timeout:g}s")
            await rt.wait_until(lambda r: r.status in states.AT_REST, min(PORT_POLL, left))

    async def _unless_stopping(self, work: Awaitable[None], doing: str) -> None:
        """Await work, unless the supervisor is told to stop first: then the caller gets
        an answer at once instead of holding the supervisor (and its lock) until it ends."""
        task = asyncio.ensure_future(work)
        stopping: asyncio.Future[Any] = asyncio.ensure_future(self._sup.stop_requested.wait())
        try:
            await asyncio.wait([task, stopping], return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopping.cancel()
        if not task.done():
            task.cancel()
            raise SupervisorUnavailable(
                f"the supervisor stopped (daemon stop or restart) {doing}",
                suggestion="run the command again: the next command starts a supervisor",
            )
        task.result()

    # -- one-off commands -----------------------------------------------------------------

    async def run_command(
        self,
        command: str,
        *,
        context: str | None = None,
        container: str | None = None,
        cwd: str | None = None,
        timeout: float = 60.0,
        on_output: Callable[[OutputBatch], None] | None = None,
    ) -> dict[str, Any]:
        """Run a one-off command in the project's environment (the one captured at the
        first start, plus the config's vars), locally or in a running container, to its
        end or its timeout; a non-zero exit is COMMAND_FAILED and an overrun TIMEOUT, each
        with the output in its data. on_output gets its output as it comes."""
        sup = self._sup
        config = sup.config()
        where = registry.exec_context(context, container)
        if not container and where in registry.in_containers():
            raise UsageError(
                f"--context {where} needs --container NAME",
                suggestion="name the running container",
            )
        spec = ProcessSpec(
            name="exec",
            command=command,
            cwd=os.path.normpath(os.path.join(str(config.root), cwd or ".")),
            env=config.vars,
            context=where,
            container_spec=ContainerSpec(container=container) if container else None,
        )
        spawned: list[RunningProcess] = []

        def track(proc: RunningProcess) -> None:  # the sentinel kills it too if we die
            spawned.append(proc)
            register(sup.sentinel, proc, registry.kind(where).on_host)

        try:
            result = await run_once(
                sup.context_for(spec),
                spec,
                sup.host.environment(spec),
                timeout,
                track,
                on_output=on_output,
            )
        finally:
            for proc in spawned:
                unregister(sup.sentinel, proc)
        data = {"command": command, "context": where, **result.as_dict()}
        if result.timed_out:
            raise Timeout(
                f"`{command}` did not finish within {timeout:g}s; it was stopped (TERM, then KILL)",
                suggestion="give it more time with --timeout, or run it as a process",
                data=data,
            )
        if result.exit_code != 0:
            ended = (
                f"exited with {result.exit_code}"
                if result.signal is None
                else f"was killed by signal {result.signal}"
            )
            raise CommandFailed(f"`{command}` {ended}", data=data)
        return data

    def snippet(self, name: str) -> Snippet:
        snippets = self.config().snippets
        if name not in snippets:
            raise SnippetNotFound.among(name, snippets)
        return snippets[name]

    async def run_snippet(
        self,
        name: str,
        given: dict[str, str],
        *,
        confirmed: bool = False,
        timeout: float | None = None,
        on_output: Callable[[OutputBatch], None] | None = None,
    ) -> dict[str, Any]:
        """Fill a snippet's placeholders and run it as run_command does (timeout None: the
        snippet's own); INVALID_ARGUMENT runs nothing, and neither does a snippet marked
        confirm unless confirmed."""
        snippet = self.snippet(name)
        try:
            command = fill(snippet.command, snippet.args, given)
        except ArgumentInvalid as exc:
            raise InvalidArgument(f"snippet {snippet.name}: {exc}") from None
        if snippet.confirm and not confirmed:
            raise ConfirmationRequired(
                f"snippet {snippet.name} asks for confirmation before it runs",
                data={"snippet": snippet.name, "command": command},
            )
        data = await self.run_command(
            command,
            context=snippet.context,
            container=snippet.container,
            cwd=snippet.cwd,
            timeout=snippet.timeout if timeout is None else timeout,
            on_output=on_output,
        )
        return {"snippet": snippet.name, **data}

    # -- schedules ------------------------------------------------------------------------

    def scheduled(self, name: str) -> str:
        """NAME's scheduled process: itself, or the one instance of a `replicas: 1`."""
        found = instances(self.config(), name)
        if len(found) != 1 or found[0] not in self._sup.schedules.entries:
            raise NotScheduled(f"{name} has no schedule")
        return self._sup.runtime(found[0]).name

    def schedules(self, name: str | None, runs: int) -> list[dict[str, Any]]:
        """Each schedule (or NAME's): its process's status, next run, and its newest runs."""
        names = (
            [self.scheduled(name)]
            if name
            else [n for n in self.config().processes if n in self._sup.schedules.entries]
        )
        schedules = self._sup.schedules
        return [
            {
                "name": n,
                "status": self._sup.runtimes[n].status,
                **(schedules.describe(n, runs) or {}),
            }
            for n in names
        ]

    async def run_now(self, name: str, timeout: float = RUN_NOW_WAIT) -> Row:
        """A scheduled process's manual run, under its overlap policy."""
        scheduled = self.scheduled(name)
        self._sup.keeper.refuse_changed([scheduled])
        done = await self._sup.schedules.run_now(scheduled, timeout)
        return {**self.describe(scheduled), **done}

    def pause(self, name: str) -> Row:
        """No slot of the schedule fires until it is armed again."""
        scheduled = self.scheduled(name)
        paused = self._sup.schedules.pause(scheduled)
        return {**self.describe(scheduled), **paused}

    def arm(self, name: str) -> Row:
        """The schedule fires at its slots again (`schedule resume`)."""
        scheduled = self.scheduled(name)
        self._sup.keeper.refuse_changed([scheduled])
        resumed = self._sup.schedules.resume(scheduled)
        return {**self.describe(scheduled), **resumed}

    async def _arm_on_start(self, rt: ProcessRuntime, restart: bool) -> dict[str, Any]:
        """`start` (and `up`) arm a schedule; `restart` arms it and runs it now."""
        result = self._sup.schedules.resume(rt.name, "schedule armed by start")
        if restart:
            result.update(await self._sup.schedules.run_now(rt.name, RUN_NOW_WAIT))
        return {**self._row(rt), **result, "note": RESUMED.format(rt.name)}

    async def _pause_on_stop(self, rt: ProcessRuntime, kill: bool = False) -> Row:
        """`stop` pauses a schedule, then stops a run going on."""
        paused = self._sup.schedules.pause(rt.name, "schedule paused by stop")
        result = await rt.stop(kill=kill)
        return {**self._row(rt), **result, **paused, "note": PAUSED.format(rt.name)}

    # -- the session ----------------------------------------------------------------------

    def stack_up(self) -> None:
        """`up` of the whole config: a reload then starts what the config adds (reloader)."""
        self._sup.set_stack_up(True)

    def end_session(self) -> None:
        """`down`: one-shots completed so far run again at the next `up`."""
        self._sup.end_session()

    # -- the supervisor itself ------------------------------------------------------------

    async def reload(self, *, dry_run: bool = False) -> dict[str, Any]:
        """The config file's diff against the running config, applied (or only shown)."""
        from procler.supervisor.reload_answer import reload

        return await reload(self._sup, dry_run)

    def supervisor_status(self) -> dict[str, Any]:
        return supervisor_status(self._sup)

    def before_stop(self, act: Callable[[], Awaitable[None]]) -> None:
        """act() runs before the processes are stopped for the supervisor to go (a stop or
        a restart, by command or signal): recipe runs are interrupted then."""
        self._sup.before_stop.append(act)

    def when_stopped_for_good(self, forget: Callable[[], None]) -> None:
        """forget() runs when `daemon stop` stops the supervisor (not on a restart)."""
        self._for_good.append(forget)

    def stopping(self) -> bool:
        """The supervisor was told to stop: what opens now would close at once."""
        return self._sup.stop_requested.is_set()

    async def stop_supervisor(self, *, keep_desired: bool) -> dict[str, Any]:
        """Stop every process and then the supervisor; keep_desired (a restart) lets the
        next supervisor bring back what runs now, else (for good) desired state is cleared."""
        if keep_desired:
            self._sup.keeper.refuse_reload()  # the next one could not start on a broken file
        stopped = await self._sup.stop_processes(keep_desired=keep_desired)
        if not keep_desired:
            self._sup.end_session()  # the next `up` runs the one-shots again
            for forget in self._for_good:
                forget()
        self._sup.stop_requested.set()
        return {**supervisor_status(self._sup), "running": False, "stopped_processes": stopped}

    # -- what recipes keep ----------------------------------------------------------------

    def state_store(self) -> StateStore:
        """The state database: recipe runs are kept there too (recipes/records.py)."""
        return self._sup.store

    def log_output(self, name: str, batch: OutputBatch) -> None:
        """Output into the log store under name (a recipe's log: one run)."""
        self._sup.output.append(name, 1, batch)

    def logged_lines(self, name: str, *, tail: int, since: float | None) -> list[dict[str, Any]]:
        """The last lines logged under name since a time, flushed first (none without a
        log store)."""
        store = self._sup.output.store
        if store is None:
            return []
        store.flush()
        return query(store.directory, name, tail=tail, since=since, run="all").lines

    def publish_recipe_step(
        self, recipe: str, run_id: str, step: str, action: str, src: str, dst: str, reason: str
    ) -> None:
        """A recipe step's move, on the event bus."""
        self._sup.events.recipe_step(recipe, run_id, step, action, src, dst, reason)

    def event_mark(self) -> int:
        """Where the transitions recorded from now on begin (events_since)."""
        return self._sup.store.event_mark()

    def events_since(self, mark: int, names: list[str]) -> list[dict[str, Any]]:
        """The transitions of these processes recorded since the mark."""
        return self._sup.store.events_since(mark, names)

    # -- what commands learn after the work -----------------------------------------------

    def config_warning(self, refresh: bool) -> dict[str, Any] | None:
        """While the config file is invalid: its message and findings (None when valid)."""
        return self._sup.keeper.warning(refresh)

    def reload_generation(self) -> int:
        return self._sup.reloader.generation

    def latest_reload(self) -> dict[str, Any]:
        return self._sup.reloader.latest.as_dict()

    def commit(self) -> None:
        """What the work changed in state.db is written (an answer never precedes it)."""
        self._sup.store.commit()
