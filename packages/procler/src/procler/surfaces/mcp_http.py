"""`procler serve --mcp`: the MCP tools (mcp_server) as Streamable HTTP on the listener.

Mounted at /mcp behind the listener's security layer, so the same Host, Origin and token
rules hold. Stateless with JSON answers: each POST is a whole exchange, so nothing lives
between requests. A read-only listener serves only the read-only tools; `serve` is
never a tool here (it would move the listener its call came through).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

from agentcli.commands import Command
from procler.surfaces.mcp_server import build_server

START_WAIT = 5.0  # seconds for the session manager's task group to start


def served(read_only: bool) -> Callable[[Command], bool]:
    def keep(cmd: Command) -> bool:
        return cmd.name != "serve" and (cmd.read_only or not read_only)

    return keep


@contextlib.asynccontextmanager
async def mcp_app(config: str, read_only: bool) -> AsyncIterator[Any]:
    """The ASGI app of MCP requests, live while the context is.

    The SDK's manager holds an anyio task group, which must be left by the task that
    entered it: it runs in a task of its own, whichever tasks open and close the listener.
    """
    manager = StreamableHTTPSessionManager(
        build_server(config, served(read_only)), stateless=True, json_response=True
    )
    started, done = asyncio.Event(), asyncio.Event()

    async def hold() -> None:
        async with manager.run():
            started.set()
            await done.wait()

    task = asyncio.create_task(hold())
    waiting = asyncio.create_task(started.wait())
    try:
        await asyncio.wait({task, waiting}, timeout=START_WAIT, return_when="FIRST_COMPLETED")
        if task.done():
            task.result()  # it failed to start: say why
        yield manager.handle_request
    finally:
        waiting.cancel()
        done.set()
        await asyncio.wait({task}, timeout=START_WAIT)
