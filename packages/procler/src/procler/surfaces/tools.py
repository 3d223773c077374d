"""Tools derived from the command declarations, and a tool call run as the CLI runs it.

A call's arguments become argv for the CLI's own parser (same validation, defaults and
usage errors); the command's handler then runs (forwarding to the supervisor through
procler.cli.client, or a local handler), and its result or exception becomes the CLI's
envelope and exit code through agentcli.main. That is how `procler mcp` (stdio, a CLI
process) answers, and how a supervisor's HTTP surface runs a command the CLI runs itself
(in a child process: procler.surfaces.local_call). No MCP SDK here: listing tools is cheap.
"""

import json
import time

from agentcli.commands import Command, Outcome, Raw, Stream
from agentcli.errors import UsageError
from agentcli.main import answer, failure, with_builtins
from agentcli.parser import GLOBAL_ARGS, parse
from agentcli.values import parse_duration
from procler.declarations import APP
from procler.surfaces.arguments import input_schema as input_schema
from procler.surfaces.arguments import to_argv as to_argv
from procler.surfaces.arguments import tool_name as tool_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from typing import Any

    Envelope = tuple[dict[str, Any], int]

# No tool: `mcp` would serve MCP inside MCP, and `capabilities` is what tools/list already
# answers (every tool's input schema, annotations and output schema); `tui` is a screen for
# people, built of the other tools.
NOT_TOOLS = frozenset({"mcp", "capabilities", "tui"})


def tool_commands() -> "list[Command]":
    """The commands that are tools, in declaration order."""
    return [c for c in with_builtins(APP).commands if c.name not in NOT_TOOLS]


def output_schema(cmd: "Command") -> "dict[str, Any]":
    """The command's output schema; MCP wants an object at the root (all our data is one)."""
    return {"type": "object", **dict(cmd.output)}


def annotations(cmd: "Command") -> "dict[str, bool]":
    return {
        "read_only_hint": cmd.read_only,
        "destructive_hint": cmd.destructive,
        "idempotent_hint": cmd.idempotent,
        "open_world_hint": False,
    }


def call(cmd: "Command", arguments: "dict[str, Any]", config: "str | None") -> "Envelope":
    """Run one command as the CLI would; the envelope and exit code it would print."""
    try:
        argv = to_argv(cmd, arguments, config)
    except UsageError as exc:
        return failure(exc)
    return run_argv(argv)


def run_argv(argv: "list[str]") -> "Envelope":
    """Parse argv with the declarations and run its command's handler here, as the CLI
    does; the envelope and exit code it would print."""
    try:
        parsed, values = parse(APP, argv)
        for garg in GLOBAL_ARGS:
            values.pop(garg.dest, None)
        assert parsed is not None  # argv always names a command
        result = parsed.resolve()(values, parsed)
    except Exception as exc:  # noqa: BLE001 - becomes the CLI's error envelope, as in main
        return failure(exc)
    return envelope_of(result)


def envelope_of(result: "Any") -> "Envelope":
    """A handler's result as the envelope and exit code the CLI would print: a forwarded
    answer as it came, a stream (events) as its messages."""
    if isinstance(result, Raw):
        return json.loads(result.text), result.exit_code
    if isinstance(result, Outcome) and isinstance(result.payload, Raw):
        return json.loads(result.payload.text), result.exit_code
    if isinstance(result, Stream):  # what the CLI prints as NDJSON lines (events)
        return answer({"messages": list(result.items)})
    return answer(result)


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
