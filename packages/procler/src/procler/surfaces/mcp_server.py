"""`procler mcp`: the command declarations as MCP tools (agentcli.mcp_server), over stdio,
plus `procler_wait_ready`, the one tool that is no command.

`tool_table` takes how each tool is answered: here the CLI's call (in a worker thread, as
handlers block on the supervisor's socket, so the server keeps answering pings meanwhile);
the supervisor's `serve --mcp` gives its own, which answers in process
(procler.supervisor.api.mcp_http). The stdio transport points fd 1 at stderr while it
serves, so nothing but protocol messages reaches stdout.
"""

import anyio
import mcp_types as types

from agentcli.commands import Stream
from agentcli.mcp_server import Entry, build_server, command_entries, serve_stdio
from procler import __version__
from procler.surfaces import tools
from procler.surfaces.arguments import TOOLS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from mcp.server import Server

    from agentcli.commands import Command
    from agentcli.mcp_server import Call
    from agentcli.tools import Envelope

INSTRUCTIONS = "Supervise this project's development processes (see procler_help_llm)."
WAIT_READY = types.Tool(
    name="procler_wait_ready",
    description="wait until every named process is ready (healthy when it has a healthcheck, "
    "else running), all within one timeout; fails with TIMEOUT or CONDITION_IMPOSSIBLE",
    input_schema={
        "type": "object",
        "properties": {
            "names": {"type": "array", "items": {"type": "string"}, "minItems": 1},
            "timeout": {"type": "string", "default": "30s", "description": "e.g. 30s, 2m"},
        },
        "required": ["names"],
        "additionalProperties": False,
    },
    output_schema={"type": "object", "properties": {"processes": {"type": "array"}}},
    annotations=types.ToolAnnotations(
        read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
    ),
)


def tool_table(call: "Call", keep: "Callable[[Command], bool] | None" = None) -> "dict[str, Entry]":
    """Every tool (of the commands `keep` accepts), each answered by `call`."""
    table = command_entries(TOOLS, call, keep)

    async def wait_ready(arguments: "dict[str, Any]", session: "str") -> "Envelope":
        return await tools.wait_ready(arguments, call)

    table[WAIT_READY.name] = Entry(WAIT_READY, wait_ready)
    return table


def procler_server(table: "dict[str, Entry]") -> "Server[Any]":
    return build_server("procler", __version__, INSTRUCTIONS, table)


def runners(config: "str | None") -> "dict[str, Entry]":
    """The tools answered as the CLI answers: in a worker thread each (handlers block on
    the supervisor's socket), so the server keeps answering pings meanwhile."""

    async def call(cmd: "Command", arguments: "dict[str, Any]") -> "Envelope":
        return await anyio.to_thread.run_sync(tools.call, cmd, arguments, config)

    return tool_table(call)


def serve(values: "dict[str, Any]", command: "Command") -> "Stream":
    """Handler of `procler mcp`: serve until stdin closes."""
    from procler.project import SEPARATOR

    config = SEPARATOR.join(values.get("config") or []) or None
    anyio.run(serve_stdio, procler_server(runners(config)))
    return Stream(iter(()))  # the session said everything: no envelope after it
