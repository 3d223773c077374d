"""`procler mcp`: the command declarations as MCP tools, served over stdio.

The SDK's low-level `Server` is used rather than `MCPServer`, whose tools are Python
functions with schemas inferred from their signatures: ours come from the declarations.
`build_server` takes each tool's runner: here the CLI's (a worker thread each, as handlers
block on the supervisor's socket, so the server keeps answering pings meanwhile); the
supervisor's `serve --mcp` gives its own, which answer in process
(procler.supervisor.api.mcp_http). The stdio transport points fd 1 at stderr while it
serves, so nothing but protocol messages reaches stdout.
"""

import functools
import json

import anyio
import mcp_types as types
from mcp.server import Server
from mcp.server.stdio import stdio_server

from agentcli.commands import Stream
from agentcli.errors import UsageError
from agentcli.main import failure
from procler import __version__
from procler.surfaces import tools

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from typing import Any

    from mcp.server import ServerRequestContext

    from agentcli.commands import Command

    Runner = Callable[[dict[str, Any]], Awaitable[tools.Envelope]]
    Call = Callable[[Command, dict[str, Any]], Awaitable[tools.Envelope]]

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


def command_tool(cmd: "Command") -> "types.Tool":
    examples = "; ".join(cmd.examples)
    return types.Tool(
        name=tools.tool_name(cmd),
        description=f"{cmd.summary} (CLI: {examples})" if examples else cmd.summary,
        input_schema=tools.input_schema(cmd),
        output_schema=tools.output_schema(cmd),
        annotations=types.ToolAnnotations.model_validate(tools.annotations(cmd)),
    )


def result(envelope: "dict[str, Any]") -> "types.CallToolResult":
    """Success: the envelope's data as structured content. Failure: a tool error whose
    text and structured content carry error, error_code and suggestion."""
    if envelope["success"]:
        data = envelope.get("data", {})
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=json.dumps(data))],
            structured_content=data,
        )
    keys = ("error", "error_code", "suggestion", "data")
    failure = {k: envelope[k] for k in keys if k in envelope}
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=json.dumps(failure))],
        structured_content=failure,
        is_error=True,
    )


def tool_table(
    call: "Call", keep: "Callable[[Command], bool] | None" = None
) -> "dict[str, tuple[types.Tool, Runner]]":
    """Every tool (of the commands `keep` accepts), each answered by `call`."""
    table: dict[str, tuple[types.Tool, Runner]] = {}
    for cmd in tools.tool_commands():
        if keep is None or keep(cmd):
            table[tools.tool_name(cmd)] = (command_tool(cmd), functools.partial(call, cmd))
    table[WAIT_READY.name] = (WAIT_READY, functools.partial(tools.wait_ready, call=call))
    return table


def runners(
    config: "str | None", keep: "Callable[[Command], bool] | None" = None
) -> "dict[str, tuple[types.Tool, Runner]]":
    """The tools answered as the CLI answers: in a worker thread each (handlers block on
    the supervisor's socket), so the server keeps answering pings meanwhile."""

    async def call(cmd: "Command", arguments: "dict[str, Any]") -> "tools.Envelope":
        return await anyio.to_thread.run_sync(tools.call, cmd, arguments, config)

    return tool_table(call, keep)


def build_server(table: "dict[str, tuple[types.Tool, Runner]]") -> "Server[Any]":
    """The MCP server of these tools, each answered by its runner."""

    async def list_tools(
        ctx: "ServerRequestContext[Any]", params: "types.PaginatedRequestParams | None"
    ) -> "types.ListToolsResult":
        return types.ListToolsResult(tools=[tool for tool, _run in table.values()])

    async def call_tool(
        ctx: "ServerRequestContext[Any]", params: "types.CallToolRequestParams"
    ) -> "types.CallToolResult":
        entry = table.get(params.name)
        if entry is None:
            unknown = UsageError(
                f"unknown tool {params.name!r}", suggestion="valid tools: " + ", ".join(table)
            )
            return result(failure(unknown)[0])
        _tool, run = entry
        envelope, _code = await run(dict(params.arguments or {}))
        return result(envelope)

    return Server(
        "procler",
        version=__version__,
        instructions="Supervise this project's development processes (see procler_help_llm).",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


async def serve_stdio(config: "str | None") -> "None":
    server = build_server(runners(config))
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def serve(values: "dict[str, Any]", command: "Command") -> "Stream":
    """Handler of `procler mcp`: serve until stdin closes."""
    from procler.project import SEPARATOR

    anyio.run(serve_stdio, SEPARATOR.join(values.get("config") or []) or None)
    return Stream(iter(()))  # the session said everything: no envelope after it
