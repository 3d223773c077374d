"""Procler's commands as tools: the one agentcli ToolSet (names `procler_<words>`, which
commands and arguments are tools, schemas, the argv a JSON call stands for) that MCP, REST,
OpenAPI and the TUI share. It imports no CLI module, so the supervisor can use it.
"""

from agentcli.tools import ToolSet
from procler.declarations import APP

# No tool: `mcp` would serve MCP inside MCP, and `capabilities` is what tools/list already
# answers (every tool's input schema, annotations and output schema); `tui` is a screen for
# people, built of the other tools; `skills install` is for agents without these tools.
NOT_TOOLS = frozenset({"mcp", "capabilities", "tui", "skills install"})
# No tool argument: a tool answers once, so `logs` and `events` cannot --follow.
NOT_TOOL_ARGS = frozenset({("logs", "follow"), ("events", "follow"), ("events", "timeout")})
TOOLS = ToolSet(APP, "procler_", NOT_TOOLS, NOT_TOOL_ARGS)


def config_argv(config: "str | None") -> "tuple[str, ...]":
    """The global option naming the config file, before a command's words."""
    return ("--config=" + config,) if config else ()
