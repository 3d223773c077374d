"""The supervisor's side of each command: async functions over the Supervisor (starting
processes, with its checks and settle wait, is starting.Starter's).

`Handlers.table()` maps every declared supervisor command to its function; a test checks
that it covers exactly the commands the declarations forward to the supervisor.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from agentcli.errors import AgentError, UsageError
from procler import states
from procler.config.graph import DependencyGraph
from procler.errors import (
    ConditionImpossible,
    ConfigInvalid,
    SupervisorUnavailable,
    Timeout,
)
from procler.selection import (
    expand,
    group_list,
    group_members,
    instances,
    named,
    one_or_rolled,
    outside_namespaces,
    split_named,
    stop_answer,
    stop_levels,
    tagged,
)
from procler.supervisor.core import Supervisor
from procler.supervisor.orchestrate import stop_plan
from procler.supervisor.runtime import ProcessRuntime
from procler.supervisor.sampler import ProcessSampler
from procler.supervisor.schedule_handlers import ScheduleCommands
from procler.supervisor.starting import START_WAIT, Starter
from procler.supervisor.status import process_status, supervisor_status
from procler.supervisor.waiting import together, wait_members

TYPE_CHECKING = False
if TYPE_CHECKING:
    from procler.supervisor.tcp_listener import TcpListener

Handler = Callable[[dict[str, Any]], Awaitable[Any]]


class Handlers:
    def __init__(self, sup: Supervisor) -> None:
        self.sup = sup
        self.sampler = ProcessSampler()
        self.schedules = ScheduleCommands(sup, self.describe)
        self.starter = Starter(sup, self.describe, self.schedules)
        self.listener: TcpListener | None = None  # `procler serve`'s: the daemon sets it

    def table(self) -> dict[str, Handler]:
        """Every command's handler; each answer carries config_warning while the config
        file is invalid (the last valid config runs meanwhile)."""
        from procler.supervisor.recipes.commands import RecipeCommands
        from procler.supervisor.snippets import SnippetCommands

        table: dict[str, Handler] = {
            **RecipeCommands(self).table(),
            **SnippetCommands(self).table(),
            "start": self.start,
            "stop": self.stop,
            "restart": self.restart,
            "status": self.status,
            "wait": self.wait,
            "up": self.up,
            "down": self.down,
            "group start": self.group_start,
            "group stop": self.group_stop,
            "group status": self.group_status,
            "group list": self.group_list,
            "reload": self.reload,
            "daemon status": self.daemon_status,
            "daemon stop": self.daemon_stop,
            "daemon restart": self.daemon_restart,
            "exec": self.exec,
            "why": self.why,
            "history": self.history,
            "ci": self.ci,
            "scale": self.scale,
            "namespace start": self.namespace_start,
            "namespace stop": self.namespace_stop,
            "namespace restart": self.namespace_restart,
            "schedule list": self.schedule_list,
            "schedule run-now": self.schedule_run_now,
            "schedule pause": self.schedule_pause,
            "schedule resume": self.schedule_resume,
            "serve": self.serve,
            "dashboard": self.dashboard,
        }
        return {name: self._warned(handler, name != "reload") for name, handler in table.items()}

    def _warned(self, handler: Handler, notice: bool) -> Handler:
        async def run(values: dict[str, Any]) -> Any:
            taken = self.sup.reloader.generation
            refresh = not values.get("dry_run")  # a dry run takes nothing up
            try:
                result = await handler(values)
            except AgentError as exc:
                warning = self.sup.keeper.warning(refresh)
                # CONFIG_INVALID carries the errors already, in data.errors
                carries = exc.data is None or isinstance(exc.data, dict)
                if warning and carries and not isinstance(exc, ConfigInvalid):
                    exc.data = {**(exc.data or {}), "config_warning": warning}
                raise
            finally:
                self.sup.store.commit()  # an answer never precedes what it reports in state.db
            warning = self.sup.keeper.warning(refresh)
            if warning and isinstance(result, dict):
                result = {**result, "config_warning": warning}
            if notice and self.sup.reloader.generation != taken and isinstance(result, dict):
                # this command noticed the changed config: say what the reload does
                result = {"config_reloaded": self.sup.reloader.latest.as_dict(), **result}
            return result

        return run

    async def exec(self, values: dict[str, Any]) -> dict[str, Any]:
        from procler.supervisor.exec_command import exec_command

        return await exec_command(self.sup, values)

    async def serve(self, values: dict[str, Any]) -> dict[str, Any]:
        return await self._listener("serve").serve(values)

    async def dashboard(self, values: dict[str, Any]) -> dict[str, Any]:
        return await self._listener("dashboard").dashboard(values)

    def _listener(self, command: str) -> TcpListener:
        assert self.listener is not None, "the daemon gives its handlers a listener"
        if self.sup.stop_requested.is_set():  # it would close with this supervisor at once
            raise SupervisorUnavailable(
                "the supervisor is stopping", suggestion=f"run `procler {command}` again"
            )
        return self.listener

    # -- helpers --------------------------------------------------------------------------

    def describe(self, rt: ProcessRuntime) -> dict[str, Any]:
        status = process_status(
            rt, self.sampler, self.sup.clock.time(), self.sup.host.dependency_down(rt)
        )
        lost = self.sup.output.unstored(rt.name)
        if lost is not None:
            status["output_warning"] = lost  # running, but what it prints is being lost
        watch = self.sup.watcher.describe(rt.name)
        if watch is not None:
            status["watch"] = watch
        schedule = self.sup.schedules.describe(rt.name)
        if schedule is not None:
            status["schedule"] = schedule
        return status

    def _graph(self) -> DependencyGraph:
        return DependencyGraph.from_config(self.sup.config())

    async def _stop_one(self, rt: ProcessRuntime, kill: bool = False) -> dict[str, Any]:
        if rt.name in self.sup.schedules.entries:
            return await self.schedules.stop(rt, kill)
        result = await rt.stop(kill=kill)
        self.sup.reap_orphans()
        return {**self.describe(rt), **result}

    def _names(self, values: dict[str, Any], verb: str) -> list[str]:
        """--all (within --namespace when given), or NAME: a process or every instance."""
        if values.get("all"):
            return tagged(self.sup.config(), {"namespace": values.get("namespace")})
        return instances(self.sup.config(), named(values, verb, self.sup.config()))

    def _group_members(self, name: str) -> list[str]:
        return group_members(self.sup.config(), name)

    async def _stop_names(
        self, names: list[str], with_dependents: bool = True
    ) -> list[dict[str, Any]]:
        levels = stop_levels(self._graph(), names, with_dependents)
        return await stop_plan(self.sup.runtimes, levels, self._stop_one)

    async def stop_names(self, names: list[str]) -> list[dict[str, Any]]:
        """Stop these processes only, dependents first (their dependents are left alone)."""
        return await self._stop_names(names, with_dependents=False)

    async def start_names(self, names: list[str], values: dict[str, Any]) -> list[dict[str, Any]]:
        """Start these processes after what they depend on (see start)."""
        return await self.starter.start_names(names, values)

    # -- process commands -----------------------------------------------------------------

    async def start(self, values: dict[str, Any], keep_completed: bool = False) -> Any:
        names = self._names(values, "start")
        outcomes = await self.starter.start_names(names, values, keep_completed)
        if values.get("all"):
            return outside_namespaces(values, names, {"processes": outcomes})
        target, deps = split_named(self.sup.config(), values["name"], outcomes)
        return {**target, "dependencies": deps} if deps else target

    async def restart(self, values: dict[str, Any]) -> Any:
        names = self._names(values, "restart")
        self.sup.keeper.refuse_changed(names)
        one = self.starter.restart_clean if values.get("clear_logs") else self.starter.start_one
        started = await together([one(self.sup.runtimes[n], True) for n in names])
        timeout = float(values.get("timeout") or START_WAIT)
        results = await self.starter.settle(list(started), timeout)
        if values.get("all"):
            return {"processes": list(results)}
        return one_or_rolled(self.sup.config(), values["name"], results)

    async def stop(self, values: dict[str, Any]) -> Any:
        names = self._names(values, "stop")
        if values.get("kill"):  # at once: no order to keep
            levels = stop_levels(self._graph(), names, bool(values.get("with_dependents")))
            killed = [n for level in levels for n in level]
            outcomes = await together([self._stop_one(self.sup.runtimes[n], True) for n in killed])
        elif values.get("all") or values.get("with_dependents"):
            outcomes = await self._stop_names(names)
        else:  # one process, or each instance of one, in parallel
            outcomes = await together([self._stop_one(self.sup.runtimes[n]) for n in names])
        return stop_answer(values, outcomes, self.sup.config())

    async def up(self, values: dict[str, Any]) -> Any:
        keep_completed = not values.get("rerun")
        if values.get("wait"):
            from procler.supervisor.stack import up_and_wait

            return await up_and_wait(self, values, keep_completed)
        return await self.start({**values, "all": True}, keep_completed=keep_completed)

    async def ci(self, values: dict[str, Any]) -> Any:
        from procler.supervisor.stack import ci

        return await ci(self, values)

    async def scale(self, values: dict[str, Any]) -> Any:
        from procler.supervisor.replica_commands import scale

        return await scale(self, values)

    async def namespace_start(self, values: dict[str, Any]) -> Any:
        return await self.start({**values, "all": True, "namespace": values["name"]})

    async def namespace_restart(self, values: dict[str, Any]) -> Any:
        return await self.restart({**values, "all": True, "namespace": values["name"]})

    async def namespace_stop(self, values: dict[str, Any]) -> Any:
        from procler.supervisor.replica_commands import namespace_stop

        return await namespace_stop(self, values)

    async def why(self, values: dict[str, Any]) -> Any:
        from procler.supervisor.why import why_named

        return why_named(self.sup, values["name"])

    async def history(self, values: dict[str, Any]) -> Any:
        from procler.supervisor.history import history_named

        return history_named(self.sup.config(), self.sup.store, values)

    async def down(self, values: dict[str, Any]) -> Any:
        return await self.stop({**values, "all": True})

    async def status(self, values: dict[str, Any]) -> Any:
        if values.get("name"):
            cfg = self.sup.config()
            rows = [self.describe(self.sup.runtimes[n]) for n in instances(cfg, values["name"])]
            return one_or_rolled(cfg, values["name"], rows)
        names = tagged(self.sup.config(), values)
        return {"processes": [self.describe(self.sup.runtimes[n]) for n in names]}

    async def wait(self, values: dict[str, Any]) -> Any:
        condition = values["for"]
        timeout = float(values["timeout"])
        if values.get("group"):
            names = self._group_members(values["group"])
        elif values.get("all"):
            names = list(self.sup.config().processes)
        elif values.get("name"):
            names = instances(self.sup.config(), values["name"])
        else:
            raise UsageError(
                "name a process, or pass --group or --all", suggestion="e.g. `procler wait api`"
            )
        together = bool(values.get("group") or values.get("all"))
        rts = [self.sup.runtimes[n] for n in names]

        def met(rt: ProcessRuntime) -> bool:
            return states.wait_met(condition, rt.status, together)

        def why_not(rt: ProcessRuntime) -> str | None:
            has_check = rt.spec.healthcheck is not None
            return states.wait_impossible(condition, rt.status, rt.desired, has_check, together)

        await self.unless_stopping(
            wait_members(rts, met, why_not, timeout), f"while waiting for {condition}"
        )
        members = [{**self.describe(rt), "condition_met": met(rt)} for rt in rts]
        data: dict[str, Any] = {"condition": condition, "processes": members}
        if values.get("group"):
            data = {"group": values["group"], **data}
        elif not together:
            data = {
                **one_or_rolled(self.sup.config(), values["name"], members),
                "condition": condition,
            }
        missing = [rt.name for rt in rts if not met(rt)]
        if not missing:
            return data
        impossible = {rt.name: why for rt in rts if (why := why_not(rt)) is not None}
        if impossible:
            raise ConditionImpossible(
                f"cannot be {condition}: "
                + "; ".join(f"{name}: {why}" for name, why in impossible.items()),
                data={**data, "not_met": missing, "impossible": impossible},
            )
        raise Timeout(
            f"not {condition} after {timeout:g}s: "
            + ", ".join(f"{rt.name} is {rt.status}" for rt in rts if rt.name in missing),
            data={**data, "not_met": missing},
        )

    async def unless_stopping(self, work: Awaitable[None], doing: str) -> None:
        """Await work, unless the supervisor is told to stop first: then the caller gets
        an answer at once instead of holding the supervisor (and its lock) until it ends."""
        task = asyncio.ensure_future(work)
        stopping: asyncio.Future[Any] = asyncio.ensure_future(self.sup.stop_requested.wait())
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

    # -- groups ---------------------------------------------------------------------------

    async def group_start(self, values: dict[str, Any]) -> Any:
        members = self._group_members(values["name"])
        outcomes = await self.starter.start_names(members, values)
        return {"group": values["name"], "processes": outcomes}

    async def group_stop(self, values: dict[str, Any]) -> Any:
        members = self._group_members(values["name"])
        # stop_order (Procler 0.3): those named stop one by one in that order, then the rest
        ordered = expand(self.sup.config(), self.sup.config().groups[values["name"]].stop_order)
        outcomes = [await self._stop_one(self.sup.runtimes[n]) for n in ordered]
        rest = [m for m in members if m not in ordered]
        outcomes += await self._stop_names(rest, with_dependents=False) if rest else []
        return {"group": values["name"], "processes": outcomes}

    async def group_status(self, values: dict[str, Any]) -> Any:
        members = self._group_members(values["name"])
        return {
            "group": values["name"],
            "processes": [self.describe(self.sup.runtimes[n]) for n in members],
        }

    async def group_list(self, values: dict[str, Any]) -> Any:
        return group_list(self.sup.config())

    # -- schedules (supervisor/schedule_handlers.py) --------------------------------------

    async def schedule_list(self, values: dict[str, Any]) -> Any:
        return await self.schedules.list(values)

    async def schedule_run_now(self, values: dict[str, Any]) -> Any:
        return await self.schedules.run_now(values)

    async def schedule_pause(self, values: dict[str, Any]) -> Any:
        return await self.schedules.pause(values)

    async def schedule_resume(self, values: dict[str, Any]) -> Any:
        return await self.schedules.resume(values)

    # -- the supervisor itself ------------------------------------------------------------

    async def reload(self, values: dict[str, Any]) -> Any:
        from procler.supervisor.reload_answer import reload

        return await reload(self.sup, bool(values.get("dry_run")))

    async def daemon_status(self, values: dict[str, Any]) -> Any:
        return supervisor_status(self.sup)

    async def daemon_stop(self, values: dict[str, Any]) -> Any:
        stopped = await self.sup.stop_processes(keep_desired=False)
        if self.listener is not None:
            self.listener.drop_settings()  # like the processes: the next supervisor does not listen
        self.sup.stop_requested.set()
        return {**supervisor_status(self.sup), "running": False, "stopped_processes": stopped}

    async def daemon_restart(self, values: dict[str, Any]) -> Any:
        self.sup.keeper.refuse_reload()  # the next supervisor could not start on the broken file
        stopped = await self.sup.stop_processes(keep_desired=True)
        self.sup.stop_requested.set()
        return {**supervisor_status(self.sup), "running": False, "stopped_processes": stopped}
