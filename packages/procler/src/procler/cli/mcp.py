"""`procler mcp`: its declaration and handler; the server is procler.surfaces.mcp_server,
imported only here (the SDK is far too heavy for any other command's start-up)."""

from agentcli.commands import Command, Stream

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MCP_COMMANDS: "tuple[Command, ...]" = (
    Command(
        "mcp",
        "serve every command as an MCP tool (procler_start, procler_status ...) over stdio "
        "until stdin closes; stdout carries only protocol messages, logs go to stderr",
        "procler.cli.mcp:serve",
        examples=("procler mcp", "procler --config path/to/config.yaml mcp"),
        output={"type": "object", "description": "none: stdout carries MCP messages"},
        mode="stream",
    ),
)


def serve(values: "dict[str, Any]", command: "Command") -> "Stream":
    import anyio

    from procler.surfaces.mcp_server import serve_stdio

    anyio.run(serve_stdio, values.get("config"))
    return Stream(iter(()))  # the session said everything: no envelope after it
