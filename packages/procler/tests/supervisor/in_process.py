"""The supervisor's commands called in process, as its socket would call them, on a
Supervisor running in the test's event loop: `cmds.start({"name": "api"})`."""

from __future__ import annotations

from typing import Any

from procler.supervisor.commands import Handler, bound
from procler.supervisor.core import Supervisor
from procler.supervisor.operations import Operations, Row
from procler.supervisor.runtime import ProcessRuntime


class Commands:
    def __init__(self, sup: Supervisor) -> None:
        self.sup = sup
        self.ops = Operations(sup)
        self._table = bound(self.ops, None)
        self._by_attribute = {
            n.replace(" ", "_").replace("-", "_"): fn for n, fn in self._table.items()
        }

    def __getattr__(self, name: str) -> Handler:
        """A command by its name, its words joined by `_` (schedule_run_now: `schedule
        run-now`)."""
        return self._by_attribute[name]

    def describe(self, rt: ProcessRuntime) -> Row:
        return self.ops.describe(rt.name)

    async def call(self, name: str, values: dict[str, Any]) -> Any:
        return await self._table[name](values)
