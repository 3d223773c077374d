"""The supervisor's side of `schedule list|run-now|pause|resume`, and what `start`,
`restart` and `stop` do to a scheduled process (start arms its schedule, stop pauses it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from procler.errors import NotScheduled
from procler.selection import instances

if TYPE_CHECKING:
    from procler.supervisor.core import Supervisor
    from procler.supervisor.runtime import ProcessRuntime

RUN_NOW_WAIT = 30.0  # default bound on run-now waiting for its run to start
RESUMED = (
    "start armed the schedule: it runs at its slots (`procler schedule run-now {}` runs it now)"
)
PAUSED = "stop paused the schedule: no slot fires until `procler start {}` or `schedule resume`"


class ScheduleCommands:
    def __init__(
        self, sup: Supervisor, describe: Callable[[ProcessRuntime], dict[str, Any]]
    ) -> None:
        self.sup = sup
        self.describe = describe  # a process's status answer (Handlers.describe)

    def _scheduled(self, name: str) -> ProcessRuntime:
        """NAME's runtime: a process, or the one instance of a scheduled `replicas: 1`."""
        found = instances(self.sup.config(), name)
        if len(found) != 1 or found[0] not in self.sup.schedules.entries:
            raise NotScheduled(f"{name} has no schedule")
        return self.sup.runtime(found[0])

    async def list(self, values: dict[str, Any]) -> Any:
        runs = int(values.get("runs") or 0)
        names = (
            [self._scheduled(values["name"]).name]
            if values.get("name")
            else [n for n in self.sup.config().processes if n in self.sup.schedules.entries]
        )
        schedules = self.sup.schedules
        return {
            "schedules": [
                {
                    "name": n,
                    "status": self.sup.runtimes[n].status,
                    **(schedules.describe(n, runs) or {}),
                }
                for n in names
            ]
        }

    async def run_now(self, values: dict[str, Any]) -> Any:
        rt = self._scheduled(values["name"])
        self.sup.keeper.refuse_changed([rt.name])
        timeout = float(values.get("timeout") or RUN_NOW_WAIT)
        done = await self.sup.schedules.run_now(rt.name, timeout)
        return {**self.describe(rt), **done}

    async def pause(self, values: dict[str, Any]) -> Any:
        rt = self._scheduled(values["name"])
        paused = self.sup.schedules.pause(rt.name)
        return {**self.describe(rt), **paused}

    async def resume(self, values: dict[str, Any]) -> Any:
        rt = self._scheduled(values["name"])
        self.sup.keeper.refuse_changed([rt.name])
        resumed = self.sup.schedules.resume(rt.name)
        return {**self.describe(rt), **resumed}

    # -- start / restart / stop of a scheduled process ------------------------------------

    async def start(self, rt: ProcessRuntime, restart: bool) -> dict[str, Any]:
        """`start` (and `up`) arm the schedule; `restart` arms it and runs it now."""
        result = self.sup.schedules.resume(rt.name, "schedule armed by start")
        if restart:
            result.update(await self.sup.schedules.run_now(rt.name, RUN_NOW_WAIT))
        return {**self.describe(rt), **result, "note": RESUMED.format(rt.name)}

    async def stop(self, rt: ProcessRuntime, kill: bool = False) -> dict[str, Any]:
        """`stop` pauses the schedule, then stops a run going on."""
        paused = self.sup.schedules.pause(rt.name, "schedule paused by stop")
        result = await rt.stop(kill=kill)
        return {**self.describe(rt), **result, **paused, "note": PAUSED.format(rt.name)}
