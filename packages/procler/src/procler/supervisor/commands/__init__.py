"""The supervisor's side of each command, one module per family as in procler/cli/: a
function turns a parsed request (the values the declarations give) into one call of the
typed seam (supervisor/operations.py, or the recipe engine for `recipe ...`) and shapes
its answer.

`command_table` assembles them; a test checks it covers exactly the commands the
declarations send to the supervisor. Every answer carries config_warning while the config
file is invalid (the last valid config runs meanwhile), and config_reloaded when the
command took up a changed one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from agentcli.errors import AgentError
from procler.errors import ConfigInvalid
from procler.supervisor.commands import (
    daemon,
    history,
    processes,
    recipes,
    replica_commands,
    schedules,
    snippets,
)
from procler.supervisor.commands.daemon import Listener
from procler.supervisor.operations import Operations

Handler = Callable[[dict[str, Any]], Awaitable[Any]]
# The families whose functions act through the Operations alone.
ON_OPERATIONS = (processes, replica_commands, snippets, schedules, history, daemon)


def command_names() -> list[str]:
    """Every command the supervisor answers (no supervisor needed to list them)."""
    names = [n for family in ON_OPERATIONS for n in family.COMMANDS]
    return [*names, *recipes.COMMANDS, *daemon.LISTENER_COMMANDS]


def command_table(ops: Operations, listener: Listener | None) -> dict[str, Handler]:
    """Every command's answer as the socket and the REST routes call it."""
    table = bound(ops, listener)
    return {name: _warned(ops, fn, name != "reload") for name, fn in table.items()}


def bound(ops: Operations, listener: Listener | None) -> dict[str, Handler]:
    """Every command's function, bound to what it acts through (without a listener,
    serve and dashboard are left out)."""
    engine = recipes.Recipes(ops)
    table: dict[str, Handler] = {
        **{n: partial(fn, engine) for n, fn in recipes.COMMANDS.items()},
        **{n: partial(fn, ops) for family in ON_OPERATIONS for n, fn in family.COMMANDS.items()},
    }
    if listener is not None:
        table.update({n: partial(fn, ops, listener) for n, fn in daemon.LISTENER_COMMANDS.items()})
    return table


def _warned(ops: Operations, handler: Handler, notice: bool) -> Handler:
    async def run(values: dict[str, Any]) -> Any:
        taken = ops.reload_generation()
        refresh = not values.get("dry_run")  # a dry run takes nothing up
        try:
            result = await handler(values)
        except AgentError as exc:
            warning = ops.config_warning(refresh)
            # CONFIG_INVALID carries the errors already, in data.errors
            carries = exc.data is None or isinstance(exc.data, dict)
            if warning and carries and not isinstance(exc, ConfigInvalid):
                exc.data = {**(exc.data or {}), "config_warning": warning}
            raise
        finally:
            ops.commit()  # an answer never precedes what it reports in state.db
        warning = ops.config_warning(refresh)
        if warning and isinstance(result, dict):
            result = {**result, "config_warning": warning}
        if notice and ops.reload_generation() != taken and isinstance(result, dict):
            # this command noticed the changed config: say what the reload does
            result = {"config_reloaded": ops.latest_reload(), **result}
        return result

    return run
