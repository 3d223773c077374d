"""`procler mcp`: its declaration (procler.surfaces.mcp_server serves the tools)."""

from agentcli.commands import Command

MCP_COMMANDS: "tuple[Command, ...]" = (
    Command(
        "mcp",
        "serve every command as an MCP tool (procler_start, procler_status ...) over stdio "
        "until stdin closes; stdout carries only protocol messages, logs go to stderr",
        "procler.surfaces.mcp_server:serve",
        examples=("procler mcp", "procler --config path/to/config.yaml mcp"),
        output={"type": "object", "description": "none: stdout carries MCP messages"},
        mode="stream",
    ),
)
