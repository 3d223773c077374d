"""The supervisor's own commands: reload, daemon status|stop|restart, and the TCP
listener's serve and dashboard (procler/cli/daemon.py declares them)."""

from __future__ import annotations

from typing import Any, Protocol

from procler.errors import SupervisorUnavailable
from procler.supervisor.commands.processes import Values
from procler.supervisor.listener_settings import ServeSettings
from procler.supervisor.operations import Operations


class Listener(Protocol):
    """`procler serve`'s TCP listener (supervisor/api/tcp_listener.py), which main gives."""

    async def serve(self, settings: ServeSettings) -> dict[str, Any]: ...
    async def stop_serving(self) -> dict[str, Any]: ...
    async def dashboard(self, port: int | None) -> dict[str, Any]: ...


async def reload(ops: Operations, values: Values) -> Any:
    return await ops.reload(dry_run=bool(values.get("dry_run")))


async def daemon_status(ops: Operations, values: Values) -> Any:
    return ops.supervisor_status()


async def daemon_stop(ops: Operations, values: Values) -> Any:
    return await ops.stop_supervisor(keep_desired=False)


async def daemon_restart(ops: Operations, values: Values) -> Any:
    return await ops.stop_supervisor(keep_desired=True)


def listening(ops: Operations, command: str) -> None:
    if ops.stopping():  # a listener opened now would close with this supervisor at once
        raise SupervisorUnavailable(
            "the supervisor is stopping", suggestion=f"run `procler {command}` again"
        )


async def serve(ops: Operations, listener: Listener, values: Values) -> Any:
    listening(ops, "serve")
    if values.get("stop"):
        return await listener.stop_serving()
    return await listener.serve(ServeSettings.of(values))


async def dashboard(ops: Operations, listener: Listener, values: Values) -> Any:
    listening(ops, "dashboard")
    return await listener.dashboard(values.get("port"))


COMMANDS = {
    "reload": reload,
    "daemon status": daemon_status,
    "daemon stop": daemon_stop,
    "daemon restart": daemon_restart,
}
LISTENER_COMMANDS = {"serve": serve, "dashboard": dashboard}
