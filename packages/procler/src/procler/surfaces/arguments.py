"""A command's arguments as JSON: their schemas, and the argv a JSON call stands for.

Shared by the MCP tools (tools, mcp_server) and the REST listener
(procler.supervisor.api.rest_routes, openapi); it imports no CLI module, so the supervisor
can use it.
"""

from agentcli.commands import Arg, Command, command_args
from agentcli.errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

PREFIX = "procler_"
# No tool argument: a tool answers once, so `logs` and `events` cannot --follow.
NOT_TOOL_ARGS = frozenset({("logs", "follow"), ("events", "follow"), ("events", "timeout")})
JSON_TYPES = {"integer": "integer", "number": "number", "boolean": "boolean"}
TYPE_HINTS = {
    "duration": "a duration: 500ms, 30s, 5m, 1h30m or bare seconds",
    "key_value": "KEY=VALUE",
}


def tool_name(cmd: "Command") -> "str":
    return PREFIX + "_".join(cmd.words).replace("-", "_")


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
