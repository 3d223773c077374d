"""The supervisor's side of each command: async functions over the Supervisor.

`HANDLERS` maps every declared supervisor command to its function; a test checks that
it covers exactly the commands declared as forwarded to the supervisor.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from procler import states
from procler.errors import PortInUse, StartFailed, Timeout
from procler.supervisor.core import Supervisor
from procler.supervisor.ports import holder
from procler.supervisor.runtime import ProcessRuntime
from procler.supervisor.status import CpuMeter, process_status

Handler = Callable[[dict[str, Any]], Awaitable[Any]]
WAIT_CONDITIONS: dict[str, Callable[[ProcessRuntime], bool]] = {
    "running": lambda rt: rt.status in states.UP,
    "stopped": lambda rt: rt.status in states.AT_REST,
    "exited": lambda rt: rt.status == states.EXITED,
    "failed": lambda rt: rt.status == states.FAILED,
    "healthy": lambda rt: rt.status == states.HEALTHY,
    "unhealthy": lambda rt: rt.status == states.UNHEALTHY,
}


class Handlers:
    def __init__(self, sup: Supervisor) -> None:
        self.sup = sup
        self.meter = CpuMeter()

    def table(self) -> dict[str, Handler]:
        return {
            "start": self.start,
            "stop": self.stop,
            "restart": self.restart,
            "status": self.status,
            "wait": self.wait,
            "daemon status": self.daemon_status,
            "daemon stop": self.daemon_stop,
            "daemon restart": self.daemon_restart,
        }

    def _one(self, rt: ProcessRuntime) -> dict[str, Any]:
        return process_status(rt, self.meter, self.sup.clock.time())

    def _check_ports(self, rt: ProcessRuntime) -> None:
        for port in rt.spec.ports:
            held = holder(port)
            if held is not None:
                raise PortInUse(
                    f"{rt.name}: port {port} is already in use by pid {held.pid} ({held.command})",
                    suggestion=f"stop pid {held.pid} or change {rt.name}'s ports",
                    data={"name": rt.name, "port": port, "pid": held.pid, "command": held.command},
                )

    async def _start_one(self, rt: ProcessRuntime, restart: bool) -> dict[str, Any]:
        if not restart and rt.status in states.ALIVE:
            return {**self._one(rt), "already_running": True}
        if not (restart and rt.status in states.ALIVE):
            self._check_ports(rt)
        result = await (rt.restart() if restart else rt.start())
        if rt.status == states.FAILED:
            raise StartFailed(
                f"{rt.name} failed during start: {(rt.last_exit or {}).get('reason', '')}",
                data={**self._one(rt), "stderr": list(rt.recent_stderr)},
            )
        return {**self._one(rt), **result}

    async def _many(
        self, values: dict[str, Any], act: Callable[[ProcessRuntime], Awaitable[dict[str, Any]]]
    ) -> Any:
        rts = self.sup.selected(values)
        if not values.get("all"):
            return await act(rts[0])
        results = await asyncio.gather(*(act(rt) for rt in rts), return_exceptions=True)
        out = []
        for rt, res in zip(rts, results, strict=True):
            if isinstance(res, BaseException):
                err = getattr(res, "code", "INTERNAL")
                out.append({**self._one(rt), "error": str(res), "error_code": err})
            else:
                out.append(res)
        return {"processes": out}

    async def start(self, values: dict[str, Any]) -> Any:
        return await self._many(values, lambda rt: self._start_one(rt, restart=False))

    async def restart(self, values: dict[str, Any]) -> Any:
        return await self._many(values, lambda rt: self._start_one(rt, restart=True))

    async def stop(self, values: dict[str, Any]) -> Any:
        async def stop_one(rt: ProcessRuntime) -> dict[str, Any]:
            result = await rt.stop()
            self.sup.reap_orphans()
            return {**self._one(rt), **result}

        return await self._many(values, stop_one)

    async def status(self, values: dict[str, Any]) -> Any:
        now = self.sup.clock.time()
        if values.get("name"):
            return process_status(self.sup.runtime(values["name"]), self.meter, now)
        cfg = self.sup.config()
        return {
            "processes": [
                process_status(self.sup.runtimes[n], self.meter, now) for n in cfg.processes
            ]
        }

    async def wait(self, values: dict[str, Any]) -> Any:
        rt = self.sup.runtime(values["name"])
        condition = values["for"]
        timeout = float(values["timeout"])
        if await rt.wait_until(WAIT_CONDITIONS[condition], timeout):
            return {**self._one(rt), "condition": condition}
        raise Timeout(
            f"{rt.name} is {rt.status}, not {condition}, after {timeout:g}s",
            data={**self._one(rt), "condition": condition},
        )

    async def daemon_status(self, values: dict[str, Any]) -> Any:
        return self.sup.about()

    async def daemon_stop(self, values: dict[str, Any]) -> Any:
        stopped = await self.sup.stop_processes(keep_desired=False)
        self.sup.stop_requested.set()
        return {**self.sup.about(), "running": False, "stopped_processes": stopped}

    async def daemon_restart(self, values: dict[str, Any]) -> Any:
        stopped = await self.sup.stop_processes(keep_desired=True)
        self.sup.stop_requested.set()
        return {**self.sup.about(), "running": False, "stopped_processes": stopped}
