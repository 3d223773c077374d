"""`office-tools mcp`: the four office tools' commands as MCP tools (agentcli.mcp_server),
over stdio or Streamable HTTP on 127.0.0.1 (agentcli.http_guard: Host, Origin, token).

Every call is confined to the root the server was started on (path arguments are taken
relative to it and refused outside it; the readers refuse any file outside it they are
led to). The process works from the root, so a relative path inside an argument (a
fieldcheck `--dataset NAME=FILE`) means the same as in a path argument.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from agentcli.commands import Command, Stream
from agentcli.errors import ExitCode, UsageError
from agentcli.main import interrupt_on_sigterm
from agentcli.mcp_server import Entry, build_server, command_entries
from agentcli.tools import Envelope, ToolSet
from officecli import __version__
from officecli.office_tools.skills import TOOLS

MCP_PATH = "/mcp"
REALM = "office-tools"


def tool_sets() -> list[ToolSet]:
    """One per office tool: `doc2md_convert`, `fieldcheck_validate`, ..."""
    return [ToolSet(app, app.name.replace("-", "_") + "_") for app, _guide in TOOLS]


def entries(root: str) -> dict[str, Entry]:
    """Every tool, answered in a worker thread (a conversion may take a while), its paths
    under `root` and everything it opens confined to it."""
    import anyio

    table: dict[str, Entry] = {}
    for tools in tool_sets():

        async def call(cmd: Command, arguments: dict[str, Any], tools: ToolSet = tools) -> Envelope:
            return await anyio.to_thread.run_sync(tools.call_within, root, cmd, arguments)

        def resolve(
            cmd: Command, arguments: dict[str, Any], tools: ToolSet = tools
        ) -> dict[str, Any]:
            return tools.rooted(cmd, arguments, root)

        table.update(command_entries(tools, call, resolve=resolve))
    return table


def instructions(root: str) -> str:
    return (
        "Office documents on this machine, nothing leaves it. doc2md_convert: Word, Excel, "
        "PowerPoint, PDF and draw.io to Markdown, with a report of what was lost (tell the "
        "user every loss.* finding). fieldcheck_validate: a table against a rules file. "
        "design_diff_excel: what changed between two design workbooks. "
        "office_replace_replace: bulk replacement, dry_run first, then the real run with the "
        f"same arguments and out_dir. Paths are relative to {root}; nothing outside it is read."
    )


def server(root: str) -> Any:
    return build_server("office-tools", __version__, instructions(root), entries(root))


def root_of(values: dict[str, Any]) -> str:
    root = Path(values.get("root") or ".")
    if not root.is_dir():
        raise UsageError(f"--root {root}: not a folder", suggestion="give an existing folder")
    return os.path.realpath(root)


def default_token_file() -> Path:
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(Path.home(), ".local", "state")
    return Path(state) / "office-tools" / "mcp-token"


def serve(values: dict[str, Any], command: Command) -> Stream:
    """Handler of `office-tools mcp`. SIGINT and SIGTERM end it with exit 130 (interrupted)
    and nothing more on stdout: it carried the protocol, or the one line saying where."""
    root = root_of(values)
    os.chdir(root)
    interrupt_on_sigterm()
    if values.get("http"):
        return Stream(serve_http(root, int(values.get("port") or 0), values.get("token_file")))
    import anyio

    from agentcli.mcp_server import serve_stdio

    try:
        anyio.run(serve_stdio, server(root))
    except KeyboardInterrupt:
        return Stream(iter(()), ExitCode.INTERRUPTED)
    return Stream(iter(()))  # the session said everything: no envelope after it


def serve_http(root: str, port: int, token_file: str | None) -> Iterator[dict[str, Any]]:
    """Listen, say where (one line), serve until SIGINT or SIGTERM (uvicorn shuts down
    gracefully, then raises the signal again: KeyboardInterrupt, exit 130)."""
    import asyncio

    import uvicorn

    from agentcli.http_guard import Guard, Policy, bind_tcp, load_token
    from agentcli.mcp_server import http_app

    path = Path(token_file) if token_file else default_token_file()
    token = load_token(path, "office-tools mcp --http")
    sock = bind_tcp("127.0.0.1", port)
    port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    yield {
        "listening": True,
        "url": url,
        "mcp": url + MCP_PATH,
        "root": root,
        "token_file": str(path),
    }

    async def run() -> None:
        async with http_app(server(root), stateless=False) as app:
            guard = Guard(app, Policy(port, token), MCP_PATH, REALM)
            config = uvicorn.Config(
                guard, log_config=None, lifespan="off", access_log=False, server_header=False
            )
            await uvicorn.Server(config).serve(sockets=[sock])

    asyncio.run(run())
