"""`procler history NAME`: the supervisor's side (procler/cli/history.py declares it; the
same answer is read from disk without a supervisor)."""

from __future__ import annotations

from typing import Any

from procler.supervisor.commands.processes import Values
from procler.supervisor.history import checked_limit
from procler.supervisor.operations import Operations


async def history(ops: Operations, values: Values) -> Any:
    return ops.history(values["name"], checked_limit(values))


COMMANDS = {"history": history}
