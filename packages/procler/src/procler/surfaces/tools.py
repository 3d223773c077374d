"""A tool call run as the CLI runs it, and the one tool that is no command.

A call's arguments become argv for the CLI's own parser (same validation, defaults and
usage errors); the command's handler then runs (forwarding to the supervisor through
procler.cli.client, or a local handler), and its result or exception becomes the CLI's
envelope and exit code (agentcli.tools.ToolSet, with Procler's TOOLS). That is how
`procler mcp` (stdio, a CLI process) and the TUI answer, and how a supervisor's HTTP
surface runs a command the CLI runs itself (in a child process: procler.surfaces.local_call).
No MCP SDK here: listing tools is cheap.
"""

import time

from agentcli.errors import UsageError
from agentcli.main import answer, failure
from agentcli.values import parse_duration
from procler.declarations import APP
from procler.surfaces.arguments import TOOLS, config_argv

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from typing import Any

    from agentcli.commands import Command
    from agentcli.tools import Envelope


def call(cmd: "Command", arguments: "dict[str, Any]", config: "str | None") -> "Envelope":
    """Run one command as the CLI would; the envelope and exit code it would print."""
    return TOOLS.call(cmd, arguments, config_argv(config))


async def wait_ready(
    arguments: "dict[str, Any]", call: "Callable[[Command, dict[str, Any]], Awaitable[Envelope]]"
) -> "Envelope":
    """The procler_wait_ready tool: wait (within one timeout) until each named process is
    ready, healthy when it has a healthcheck, else running. Composed of the `status` and
    `wait` commands, each answered by `call` (the CLI's, or a supervisor's in process)."""
    timeout = str(arguments.get("timeout", "30s"))
    try:
        seconds = parse_duration(timeout)
    except ValueError as exc:
        return failure(UsageError(f"procler_wait_ready: {exc}", suggestion="give e.g. 30s"))
    deadline = time.monotonic() + seconds
    ready = []
    for name in list(arguments.get("names", [])):
        env, code = await call(APP.command("status"), {"name": name})
        if not env["success"]:
            return env, code
        condition = "healthy" if "health" in env["data"] else "running"
        left = max(deadline - time.monotonic(), 0.0)
        env, code = await call(
            APP.command("wait"), {"name": name, "for": condition, "timeout": f"{left:.3f}"}
        )
        if not env["success"]:
            return env, code
        ready.append(env["data"])
    return answer({"processes": ready})
