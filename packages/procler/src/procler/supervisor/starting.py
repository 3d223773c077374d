"""Starting processes for the commands (start, restart, up, group start, scale): the checks
before a start (a start in flight, a completed one-shot, ports held by someone else), the
start itself in dependency order, and the settle wait until each start is known good or bad.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from procler import states
from procler.config.graph import DependencyGraph
from procler.config.model import Dependency, ProjectConfig
from procler.errors import PortInUse, StartFailed
from procler.selection import expand
from procler.supervisor.core import Supervisor
from procler.supervisor.orchestrate import start_plan
from procler.supervisor.ports import holder, project_process
from procler.supervisor.runtime import ProcessRuntime
from procler.supervisor.schedule_handlers import ScheduleCommands
from procler.supervisor.waiting import together

START_WAIT = 60.0  # default bound on a start waiting for its health check (--timeout)


def listed_after(cfg: ProjectConfig, listed: tuple[str, ...]) -> dict[str, tuple[Dependency, ...]]:
    """A group's list order as dependencies (`started`) of each process (every instance)
    on the one listed before it, where depends_on does not order them already."""
    graph = DependencyGraph.as_written(cfg.processes)
    added, _ = graph.listed_order(listed)
    after: dict[str, tuple[Dependency, ...]] = {}
    for earlier, later in added:
        waits = tuple(Dependency(name=n, condition="started") for n in expand(cfg, [earlier]))
        for name in expand(cfg, [later]):
            after[name] = after.get(name, ()) + waits
    return after


class Starter:
    def __init__(
        self,
        sup: Supervisor,
        describe: Callable[[ProcessRuntime], dict[str, Any]],
        schedules: ScheduleCommands,
    ) -> None:
        self.sup = sup
        self.describe = describe  # a process's status answer (Handlers.describe)
        self.schedules = schedules

    def check_ports(self, rt: ProcessRuntime) -> None:
        for port in rt.spec.ports:
            held = holder(port)
            if held is None:
                continue
            ours = project_process(held.pid, self.sup.root)
            found = {"pid": held.pid, "command": held.command, "procler_process": ours}
            data = {"name": rt.name, "port": port, "holder": found}
            if ours is not None:
                raise PortInUse(
                    f"{rt.name}: port {port} is already in use by Procler process {ours!r} "
                    f"(pid {held.pid})",
                    suggestion=f"`procler stop {ours}` first, or change {rt.name}'s ports",
                    data=data,
                )
            raise PortInUse(
                f"{rt.name}: port {port} is already in use by pid {held.pid} ({held.command})",
                suggestion=f"stop pid {held.pid} or change {rt.name}'s ports",
                data=data,
            )

    async def start_one(
        self, rt: ProcessRuntime, restart: bool = False, keep_completed: bool = False
    ) -> dict[str, Any]:
        """What starting did (its name and flags): the status is described once, when the
        start has settled (settle), not per step, which `up` of 1,000 processes felt."""
        if rt.name in self.sup.schedules.entries:
            return await self.schedules.start(rt, restart)
        if not restart and rt.status in states.ALIVE:
            await rt.settled()  # a start in flight ends first: the answer has its pid
            if rt.status in states.ALIVE:
                return {"name": rt.name, "already_running": True}
        if keep_completed and states.done_for_up(rt.status, rt.completed_spec == rt.spec):
            return {"name": rt.name, "already_completed": True}
        if not (restart and rt.status in states.ALIVE):
            self.check_ports(rt)
        self.sup.watcher.rearm(rt.name)
        result = await (rt.restart() if restart else rt.start())
        self.refuse_failed(rt)
        return {"name": rt.name, **result}

    def refuse_failed(self, rt: ProcessRuntime) -> None:
        if rt.status == states.FAILED:
            raise StartFailed(
                f"{rt.name} failed during start: {(rt.last_exit or {}).get('reason', '')}",
                data={**self.describe(rt), "stderr": list(rt.recent_stderr)},
            )

    async def settle(self, outcomes: list[dict[str, Any]], timeout: float) -> list[dict[str, Any]]:
        """Wait (bounded) until each process just started is known good (its health check
        passed) or known bad; a failed one raises START_FAILED. Dependents with condition
        `started` did not wait for this."""
        fresh = [
            self.sup.runtimes[o["name"]]
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
            self.refuse_failed(rt)
        return [self.described(o) for o in outcomes]

    def described(self, outcome: dict[str, Any]) -> dict[str, Any]:
        """The process's status now, with what its start said after it (already_running...)."""
        now = self.describe(self.sup.runtimes[outcome["name"]])
        return {**now, **outcome, **now}

    async def restart_clean(self, rt: ProcessRuntime, restart: bool) -> dict[str, Any]:
        """restart --clear-logs: the old run stopped, its logs removed, a new run started."""
        await rt.stop("restart requested (clearing logs)")
        self.sup.output.clear(rt.name)
        return await self.start_one(rt)

    async def start_names(
        self,
        names: list[str],
        values: dict[str, Any],
        keep_completed: bool = True,
        listed: tuple[str, ...] = (),
    ) -> list[dict[str, Any]]:
        """Start these processes after what they depend on (unless --no-deps), then settle;
        keep_completed: leave alone one-shots that completed in this session with the same
        definition (not `--rerun`). listed: a group's members in its list order, which the
        start follows too (each once the one before has started), as Procler 0.3 did."""
        cfg = self.sup.config()
        graph = DependencyGraph.from_config(cfg)
        after = listed_after(cfg, listed)
        with_deps = not values.get("no_deps")
        self.sup.keeper.refuse_changed(graph.start_order(names) if with_deps else names)
        timeout = float(values.get("timeout") or START_WAIT)
        deadline = self.sup.clock.monotonic() + timeout  # --timeout bounds the whole start
        # A process that runs is left as it is, and so is everything else for it: starting
        # it touches none of its dependencies (a start in flight ends first).
        running = [n for n in names if self.sup.runtimes[n].status in states.ALIVE]
        for name in running:
            await self.sup.runtimes[name].settled()
        running = [n for n in running if self.sup.runtimes[n].status in states.ALIVE]
        todo = [n for n in names if n not in running]
        outcomes = {n: {"name": n, "already_running": True} for n in running}
        if todo:
            planned = await start_plan(
                self.sup.runtimes,
                graph,
                todo,
                lambda n: cfg.processes[n].depends_on + after.get(n, ()),
                lambda rt: self.start_one(rt, keep_completed=keep_completed),
                timeout,
                with_deps=with_deps,
                describe=self.described,
            )
            outcomes = {**outcomes, **{o["name"]: o for o in planned}}
        order = graph.start_order(names) if with_deps else names
        ordered = [outcomes[n] for n in order if n in outcomes]
        return await self.settle(ordered, max(0.0, deadline - self.sup.clock.monotonic()))
