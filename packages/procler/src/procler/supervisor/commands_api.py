"""What modules serving commands use of the supervisor's Handlers (stack, recipes, snippets):
a Protocol, so they need not import handlers.py, which imports them."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, Protocol

from procler.supervisor.core import Supervisor
from procler.supervisor.runtime import ProcessRuntime


class CommandHandlers(Protocol):
    sup: Supervisor

    def describe(self, rt: ProcessRuntime) -> dict[str, Any]: ...

    async def start(self, values: dict[str, Any]) -> Any: ...

    async def stop(self, values: dict[str, Any]) -> Any: ...

    async def restart(self, values: dict[str, Any]) -> Any: ...

    async def group_start(self, values: dict[str, Any]) -> Any: ...

    async def group_stop(self, values: dict[str, Any]) -> Any: ...

    async def unless_stopping(self, work: Awaitable[None], doing: str) -> None: ...
