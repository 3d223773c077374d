"""A tool's commands as an MCP server (the official SDK), over stdio or Streamable HTTP.

The SDK's low-level `Server` is used rather than `MCPServer`, whose tools are Python
functions with schemas inferred from their signatures: ours come from the declarations
(agentcli.tools). Each tool has a runner, a coroutine: by default the CLI's call in a
worker thread (handlers may block), so the server keeps answering meanwhile; a server that
answers in its own loop (Procler's supervisor) gives its own. A success is the envelope's
data as `structuredContent` (a report command's findings report), with the exit code in
`_meta`; a failure is a tool error carrying `error`, `error_code` and `suggestion`, as the
CLI's envelope would.

A command declared `dry_run_first` runs for real only after a dry run with the same
arguments (all but where it writes) in the same session, or with `confirm: true`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import mcp_types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

from agentcli.commands import Command
from agentcli.errors import UsageError
from agentcli.main import failure
from agentcli.tools import Envelope, ToolSet

Runner = Callable[[dict[str, Any], str], Awaitable[Envelope]]  # (arguments, session) -> answer
Call = Callable[[Command, dict[str, Any]], Awaitable[Envelope]]  # a command run somewhere
START_WAIT = 5.0  # seconds for the HTTP session manager's task group to start
# What a real run may change from its dry run: where it writes, and the switch itself.
WHERE_IT_WRITES = frozenset({"dry_run", "out_dir", "force", "confirm"})
CONFIRM = {
    "type": "boolean",
    "default": False,
    "description": "run for real without a dry run in this session first: only when the "
    "user asked to skip it",
}


class DryRunRequired(UsageError):
    code = "DRY_RUN_REQUIRED"
    default_suggestion = (
        "call it with dry_run: true and the same arguments first, show the user the findings, "
        "then call it again without dry_run (confirm: true only if the user said to skip it)"
    )


class Entry:
    """One tool: its description for tools/list, how it runs, whether it answers a report."""

    def __init__(self, tool: types.Tool, run: Runner, report: bool = False) -> None:
        self.tool = tool
        self.run = run
        self.report = report


def command_tool(tools: ToolSet, cmd: Command) -> types.Tool:
    schema = tools.input_schema(cmd)
    if cmd.dry_run_first:
        schema["properties"]["confirm"] = CONFIRM
    return types.Tool(
        name=tools.name(cmd),
        description=tools.description(cmd),
        input_schema=schema,
        output_schema=tools.output_schema(cmd),
        annotations=types.ToolAnnotations.model_validate(tools.annotations(cmd)),
    )


def result(envelope: dict[str, Any], exit_code: int, report: bool = False) -> types.CallToolResult:
    """Success (or a report, findings or not): the data as structured content. Failure: a
    tool error whose text and structured content carry error, error_code and suggestion."""
    meta = {"exit_code": exit_code}
    if envelope["success"] or (report and "error_code" not in envelope):
        data = envelope.get("data", {})
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=json.dumps(data, ensure_ascii=False))],
            structured_content=data,
            _meta=meta,
        )
    keys = ("error", "error_code", "suggestion", "data")
    failed = {k: envelope[k] for k in keys if k in envelope}
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=json.dumps(failed, ensure_ascii=False))],
        structured_content=failed,
        is_error=True,
        _meta=meta,
    )


class DryRuns:
    """The dry runs each session made, by what they would write (see WHERE_IT_WRITES)."""

    def __init__(self) -> None:
        self.seen: dict[str, set[str]] = {}

    @staticmethod
    def fingerprint(arguments: dict[str, Any]) -> str:
        """The arguments but where it writes, and the content of each file they name (a
        rules file edited after its dry run needs a new one)."""
        kept = {k: v for k, v in sorted(arguments.items()) if k not in WHERE_IT_WRITES}
        digest = hashlib.sha256(json.dumps(kept, sort_keys=True, default=str).encode())
        for value in kept.values():
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, str) and os.path.isfile(item):
                    with contextlib.suppress(OSError), open(item, "rb") as fh:
                        digest.update(hashlib.sha256(fh.read()).digest())
        return digest.hexdigest()

    def gate(
        self, tool: str, run: Runner, resolve: Callable[[dict[str, Any]], dict[str, Any]]
    ) -> Runner:
        """`run` behind the rule; `resolve` gives the arguments as the call will take them
        (paths under the root), so that no file outside it is read for a fingerprint."""

        async def gated(arguments: dict[str, Any], session: str) -> Envelope:
            arguments = dict(arguments)
            confirmed = arguments.pop("confirm", False) is True
            try:
                key = self.fingerprint(resolve(arguments))
            except Exception as exc:  # noqa: BLE001 - the call's own error, as it would give it
                return failure(exc)
            if arguments.get("dry_run") is True:
                envelope, code = await run(arguments, session)
                if "error_code" not in envelope:
                    self.seen.setdefault(session, set()).add(key)
                return envelope, code
            if confirmed or key in self.seen.get(session, set()):
                return await run(arguments, session)
            return failure(
                DryRunRequired(
                    f"{tool} writes files: its dry run with these arguments comes first in a "
                    "session"
                )
            )

        return gated


def command_entries(
    tools: ToolSet,
    call: Call,
    keep: Callable[[Command], bool] | None = None,
    resolve: Callable[[Command, dict[str, Any]], dict[str, Any]] | None = None,
) -> dict[str, Entry]:
    """An entry per command that is a tool (and that `keep` accepts), answered by `call`.
    `resolve` gives a call's arguments as it will take them (its paths under a root), for
    the dry-run gate's fingerprint."""
    dry_runs = DryRuns()
    table: dict[str, Entry] = {}
    for cmd in tools.commands():
        if keep is not None and not keep(cmd):
            continue

        async def run(arguments: dict[str, Any], session: str, cmd: Command = cmd) -> Envelope:
            return await call(cmd, arguments)

        def resolved(arguments: dict[str, Any], cmd: Command = cmd) -> dict[str, Any]:
            return arguments if resolve is None else resolve(cmd, arguments)

        name = tools.name(cmd)
        runner: Runner = dry_runs.gate(name, run, resolved) if cmd.dry_run_first else run
        table[name] = Entry(command_tool(tools, cmd), runner, cmd.mode == "report")
    return table


def session_key(ctx: ServerRequestContext[Any]) -> str:
    """The MCP session a call belongs to: its Mcp-Session-Id over HTTP; stdio serves one."""
    headers = getattr(getattr(ctx, "request", None), "headers", None) or {}
    return str(headers.get("mcp-session-id", ""))


def build_server(
    name: str, version: str, instructions: str, table: dict[str, Entry]
) -> Server[Any]:
    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[entry.tool for entry in table.values()])

    async def call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        entry = table.get(params.name)
        if entry is None:
            unknown = UsageError(
                f"unknown tool {params.name!r}", suggestion="valid tools: " + ", ".join(table)
            )
            return result(*failure(unknown))
        envelope, code = await entry.run(dict(params.arguments or {}), session_key(ctx))
        return result(envelope, code, entry.report)

    return Server(
        name,
        version=version,
        instructions=instructions,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


async def serve_stdio(server: Server[Any]) -> None:
    """Serve until stdin closes; the transport points fd 1 at stderr meanwhile, so nothing
    but protocol messages reaches stdout."""
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


@contextlib.asynccontextmanager
async def http_app(server: Server[Any], stateless: bool) -> AsyncIterator[Any]:
    """The ASGI app of MCP requests (Streamable HTTP, JSON answers), live while the
    context is. The SDK's manager holds an anyio task group, which must be left by the
    task that entered it: it runs in a task of its own."""
    manager = StreamableHTTPSessionManager(server, stateless=stateless, json_response=True)
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
