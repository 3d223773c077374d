"""`procler serve --mcp`: the MCP tools as Streamable HTTP on the listener, answered in the
supervisor.

Mounted at /mcp behind the listener's security layer, so the same Host, Origin and token
rules hold. Stateless with JSON answers: each POST is a whole exchange, so nothing lives
between requests. A tool call's arguments become argv for the declarations' parser (the
CLI's validation, defaults and usage errors), then run where REST runs them (dispatch): the
supervisor's own commands in process, from its command table, never through its own
socket. The tools are those the listener's token may call (procler.supervisor.api.access:
a read-only one, reads that hold no secret; `serve` never).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

from agentcli.commands import Command
from agentcli.errors import UsageError
from agentcli.main import failure
from agentcli.mcp_server import http_app
from agentcli.parser import parse
from procler.supervisor.api.access import Access
from procler.supervisor.api.command_routes import Api, Outcome, handler_values
from procler.supervisor.api.dispatch import Dispatch
from procler.surfaces.arguments import TOOLS
from procler.surfaces.mcp_server import procler_server, tool_table


def answering(api: Api) -> Callable[[Command, dict[str, Any]], Awaitable[Outcome]]:
    """A tool call answered in this supervisor: its arguments parsed as the CLI parses
    them, then run where REST runs a command (dispatch)."""
    dispatch = Dispatch(api)

    async def call(cmd: Command, arguments: dict[str, Any]) -> Outcome:
        try:
            argv = TOOLS.to_argv(cmd, arguments)
            parsed, values = parse(api.app, argv)
        except UsageError as exc:
            return failure(exc)
        assert parsed is not None  # argv always names a command
        return await dispatch.run(parsed, handler_values(api.app, parsed, values), argv)

    return call


def mcp_app(api: Api, access: Access) -> AbstractAsyncContextManager[Any]:
    """The ASGI app of MCP requests (stateless, JSON answers), live while the context is:
    the tools listed and answered are those `access` allows."""
    return http_app(procler_server(tool_table(answering(api), access.allows)), stateless=True)
