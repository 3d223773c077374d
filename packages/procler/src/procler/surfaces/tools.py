"""Tools derived from the command declarations, and a tool call run as the CLI runs it.

A call's arguments become argv for the CLI's own parser (same validation, defaults and
usage errors); the command's handler then runs (forwarding to the supervisor through
procler.cli.client, or a local handler), and its result or exception becomes the CLI's
envelope and exit code through agentcli.main. No MCP SDK here: listing tools is cheap.
"""

import json
import time

from agentcli.commands import Arg, Command, Outcome, Raw, Stream, command_args
from agentcli.errors import UsageError
from agentcli.main import answer, failure, with_builtins
from agentcli.parser import GLOBAL_ARGS, parse
from agentcli.values import parse_duration
from procler.cli import APP

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    Envelope = tuple[dict[str, Any], int]

PREFIX = "procler_"
# No tool: `mcp` would serve MCP inside MCP, and `capabilities` is what tools/list already
# answers (every tool's input schema, annotations and output schema); `tui` is a screen for
# people, built of the other tools.
NOT_TOOLS = frozenset({"mcp", "capabilities", "tui"})
# No tool argument: a tool answers once, so `logs` and `events` cannot --follow.
NOT_TOOL_ARGS = frozenset({("logs", "follow"), ("events", "follow"), ("events", "timeout")})
JSON_TYPES = {"integer": "integer", "number": "number", "boolean": "boolean"}
TYPE_HINTS = {
    "duration": "a duration: 500ms, 30s, 5m, 1h30m or bare seconds",
    "key_value": "KEY=VALUE",
}


def tool_name(cmd: "Command") -> "str":
    return PREFIX + "_".join(cmd.words).replace("-", "_")


def tool_commands() -> "list[Command]":
    """The commands that are tools, in declaration order."""
    return [c for c in with_builtins(APP).commands if c.name not in NOT_TOOLS]


def tool_args(cmd: "Command") -> "list[Arg]":
    return [a for a in command_args(cmd) if (cmd.name, a.dest) not in NOT_TOOL_ARGS]


def value_schema(arg: "Arg") -> "dict[str, Any]":
    """The JSON schema of one argument's value."""
    if arg.type == "remainder":
        return {"type": "array", "items": {"type": "string"}, "description": arg.help}
    item: dict[str, Any] = {"type": JSON_TYPES.get(arg.type, "string")}
    if arg.choices:
        item["enum"] = list(arg.choices)
    schema = {"type": "array", "items": item} if arg.multiple else item
    hint = TYPE_HINTS.get(arg.type)
    schema["description"] = f"{arg.help} ({hint})" if hint else arg.help
    if arg.default is not None and not arg.multiple:
        schema["default"] = arg.default
    return schema


def input_schema(cmd: "Command") -> "dict[str, Any]":
    args = tool_args(cmd)
    return {
        "type": "object",
        "properties": {a.dest: value_schema(a) for a in args},
        "required": [a.dest for a in args if a.required],
        "additionalProperties": False,
    }


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


def _wrong_type(cmd: "Command", arg: "Arg", value: "Any") -> "UsageError":
    wanted = value_schema(arg)["type"]
    return UsageError(
        f"{tool_name(cmd)}: {arg.dest} must be of type {wanted}, got {value!r}",
        suggestion=f"see the input schema of {tool_name(cmd)}",
    )


def _text(cmd: "Command", arg: "Arg", value: "Any") -> "str":
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise _wrong_type(cmd, arg, value)
    return str(value)


def to_argv(cmd: "Command", arguments: "dict[str, Any]", config: "str | None") -> "list[str]":
    """The argv the CLI would get for these tool arguments (options inline, so no value
    can pass for a flag)."""
    args = tool_args(cmd)
    unknown = sorted(set(arguments) - {a.dest for a in args})
    if unknown:
        raise UsageError(
            f"{tool_name(cmd)}: unknown argument(s): {', '.join(unknown)}",
            suggestion="valid arguments: " + (", ".join(a.dest for a in args) or "none"),
        )
    argv = (["--config=" + config] if config else []) + cmd.words
    positionals: list[str] = []
    rest: list[str] = []
    for arg in args:
        value = arguments.get(arg.dest)
        if value is None or value is False:
            continue
        if arg.type == "boolean":
            if value is not True:
                raise _wrong_type(cmd, arg, value)
            argv.append(arg.name)
        elif arg.type == "remainder" or arg.multiple:
            items = [_text(cmd, arg, v) for v in (value if isinstance(value, list) else [value])]
            if arg.type == "remainder":
                rest = items
            else:
                argv += [f"{arg.name}={item}" for item in items]
        elif arg.positional:
            positionals.append(_text(cmd, arg, value))
        else:
            argv.append(f"{arg.name}={_text(cmd, arg, value)}")
    if not any(a.type == "remainder" for a in args):
        return [*argv, "--", *positionals]
    for word in positionals:
        if word.startswith("-"):
            raise UsageError(
                f"{tool_name(cmd)}: a name cannot start with '-': {word!r}",
                suggestion="give the name without leading dashes",
            )
    return [*argv, *positionals, "--", *rest]


def call(cmd: "Command", arguments: "dict[str, Any]", config: "str | None") -> "Envelope":
    """Run one command as the CLI would; the envelope and exit code it would print."""
    try:
        parsed, values = parse(APP, to_argv(cmd, arguments, config))
        for garg in GLOBAL_ARGS:
            values.pop(garg.dest, None)
        assert parsed is not None  # argv always names a command
        result = parsed.resolve()(values, parsed)
    except Exception as exc:  # noqa: BLE001 - becomes the CLI's error envelope, as in main
        return failure(exc)
    if isinstance(result, Raw):
        return json.loads(result.text), result.exit_code
    if isinstance(result, Outcome) and isinstance(result.payload, Raw):
        return json.loads(result.payload.text), result.exit_code
    if isinstance(result, Stream):  # what the CLI prints as NDJSON lines (events)
        return answer({"messages": list(result.items)})
    return answer(result)


def wait_ready(names: "list[str]", timeout: "str", config: "str | None") -> "Envelope":
    """Wait (within one timeout) until each process is ready: healthy when it has a
    healthcheck, else running. Composed of the `status` and `wait` commands."""
    try:
        seconds = parse_duration(timeout)
    except ValueError as exc:
        return failure(UsageError(f"procler_wait_ready: {exc}", suggestion="give e.g. 30s"))
    deadline = time.monotonic() + seconds
    ready = []
    for name in names:
        env, code = call(APP.command("status"), {"name": name}, config)
        if not env["success"]:
            return env, code
        condition = "healthy" if "health" in env["data"] else "running"
        left = max(deadline - time.monotonic(), 0.0)
        env, code = call(
            APP.command("wait"), {"name": name, "for": condition, "timeout": f"{left:.3f}"}, config
        )
        if not env["success"]:
            return env, code
        ready.append(env["data"])
    return answer({"processes": ready})
