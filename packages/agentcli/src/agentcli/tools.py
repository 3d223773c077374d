"""Commands as tools (MCP, and any other JSON surface): each command's name, input schema,
output schema and annotations derived from its declaration, a JSON call turned into the
argv the CLI's own parser takes, and the call run as the CLI runs it.

A call goes through the CLI's parser (same validation, defaults and usage errors) and the
command's handler; its result or exception becomes the CLI's envelope and exit code through
agentcli.main. A report command's answer is its findings report as JSON data. No MCP SDK
here: listing tools stays cheap (agentcli.mcp_server wraps this in the SDK).

`call_within(root, ...)` takes every path argument relative to the root and refuses one
outside it (symlinks resolved), and runs the call confined to it (agentcli.confine), so the
files a tool opens through other files are checked too.
"""

from __future__ import annotations

import json
import os
from typing import Any

from agentcli.commands import App, Arg, Command, Outcome, Raw, Stream
from agentcli.confine import OutsideRootError, confined, inside
from agentcli.errors import UsageError
from agentcli.main import answer, failure, with_builtins
from agentcli.parser import GLOBAL_ARGS, parse

Envelope = tuple[dict[str, Any], int]

JSON_TYPES = {"integer": "integer", "number": "number", "boolean": "boolean"}
TYPE_HINTS = {
    "duration": "a duration: 500ms, 30s, 5m, 1h30m or bare seconds",
    "key_value": "KEY=VALUE",
}


class ToolSet:
    """How one tool's commands become tools: `prefix` + the command's words is a tool's
    name; `not_tools` are commands that are no tool, `not_args` (command, argument) pairs
    no tool takes. `capabilities` is never a tool: listing the tools answers it. A report
    command's `--format` and `--output` are none either: its answer is the report."""

    def __init__(
        self,
        app: App,
        prefix: str,
        not_tools: frozenset[str] = frozenset(),
        not_args: frozenset[tuple[str, str]] = frozenset(),
    ) -> None:
        self.app = with_builtins(app)
        self.prefix = prefix
        self.not_tools = not_tools | {"capabilities"}
        self.not_args = not_args

    def commands(self) -> list[Command]:
        """The commands that are tools, in declaration order."""
        return [c for c in self.app.commands if c.name not in self.not_tools]

    def name(self, cmd: Command) -> str:
        return self.prefix + "_".join(cmd.words).replace("-", "_")

    def command(self, tool: str) -> Command | None:
        return next((c for c in self.commands() if self.name(c) == tool), None)

    def args(self, cmd: Command) -> list[Arg]:
        """A tool's arguments: the command's own, but those a person's terminal acts on
        (Arg.local: an attached session, the table view)."""
        return [a for a in cmd.args if not a.local and (cmd.name, a.dest) not in self.not_args]

    def input_schema(self, cmd: Command) -> dict[str, Any]:
        args = self.args(cmd)
        return {
            "type": "object",
            "properties": {a.dest: value_schema(a) for a in args},
            "required": [a.dest for a in args if a.required],
            "additionalProperties": False,
        }

    def output_schema(self, cmd: Command) -> dict[str, Any]:
        """The report's JSON Schema for a report command; else the command's output schema
        (MCP wants an object at the root, and every answer's data is one)."""
        if cmd.mode == "report":
            from agentcli.report import report_schema

            return report_schema()
        return {"type": "object", **dict(cmd.output)}

    def annotations(self, cmd: Command) -> dict[str, bool]:
        return {
            "read_only_hint": cmd.read_only,
            "destructive_hint": cmd.destructive,
            "idempotent_hint": cmd.idempotent,
            "open_world_hint": False,
        }

    def description(self, cmd: Command) -> str:
        examples = "; ".join(cmd.examples)
        return f"{cmd.summary} (CLI: {examples})" if examples else cmd.summary

    def to_argv(
        self, cmd: Command, arguments: dict[str, Any], leading: tuple[str, ...] = ()
    ) -> list[str]:
        """The argv the CLI would get for these tool arguments (options inline, so no value
        can pass for a flag); `leading` goes before the command's words (global options)."""
        args = self.args(cmd)
        unknown = sorted(set(arguments) - {a.dest for a in args})
        if unknown:
            raise UsageError(
                f"{self.name(cmd)}: unknown argument(s): {', '.join(unknown)}",
                suggestion="valid arguments: " + (", ".join(a.dest for a in args) or "none"),
            )
        argv = [*leading, *cmd.words]
        positionals: list[str] = []
        rest: list[str] = []
        for arg in args:
            value = arguments.get(arg.dest)
            if value is None or value is False:
                continue
            if arg.type == "boolean":
                if value is not True:
                    raise self._wrong_type(cmd, arg, value)
                argv.append(arg.name)
            elif arg.type == "remainder" or arg.multiple:
                items = [self._text(cmd, arg, v) for v in _listed(value)]
                if arg.type == "remainder":
                    rest = items
                elif arg.positional:
                    positionals += items
                else:
                    argv += [f"{arg.name}={item}" for item in items]
            elif arg.positional:
                positionals.append(self._text(cmd, arg, value))
            else:
                argv.append(f"{arg.name}={self._text(cmd, arg, value)}")
        if not any(a.type == "remainder" for a in args):
            return [*argv, "--", *positionals]
        for word in positionals:
            if word.startswith("-"):
                raise UsageError(
                    f"{self.name(cmd)}: a name cannot start with '-': {word!r}",
                    suggestion="give the name without leading dashes",
                )
        return [*argv, *positionals, "--", *rest]

    def rooted(self, cmd: Command, arguments: dict[str, Any], root: str) -> dict[str, Any]:
        """The arguments with every path taken relative to `root` (a default path too),
        refused when it leads outside it (symlinks resolved)."""
        out = dict(arguments)
        for arg in self.args(cmd):
            if arg.type != "path":
                continue
            value = out.get(arg.dest, arg.default)
            if value is None:
                continue
            paths = [self._text(cmd, arg, v) for v in _listed(value)]
            placed = [os.path.normpath(os.path.join(root, p)) for p in paths]
            for given, path in zip(paths, placed, strict=True):
                if not inside(path, root):
                    raise OutsideRootError(
                        f"{self.name(cmd)}: {arg.dest} {given!r} is outside {root}, the only "
                        "folder this server reads and writes"
                    )
            out[arg.dest] = placed if arg.multiple else placed[0]
        return out

    def call(
        self, cmd: Command, arguments: dict[str, Any], leading: tuple[str, ...] = ()
    ) -> Envelope:
        """Run one command as the CLI would: the envelope and exit code it would print (a
        report command's report as the envelope's data)."""
        try:
            return self.run_argv(self.to_argv(cmd, arguments, leading))
        except Exception as exc:  # noqa: BLE001 - becomes the CLI's error envelope, as in main
            return failure(exc)

    def call_within(self, root: str, cmd: Command, arguments: dict[str, Any]) -> Envelope:
        """`call`, its paths taken under `root` and everything it opens confined to it."""
        try:
            with confined(root) as real:
                return self.run_argv(self.to_argv(cmd, self.rooted(cmd, arguments, real)))
        except Exception as exc:  # noqa: BLE001 - becomes the CLI's error envelope, as in main
            return failure(exc)

    def run_argv(self, argv: list[str]) -> Envelope:
        """Parse argv with the declarations and run its command's handler here, as the CLI
        does; the envelope and exit code it would print."""
        try:
            parsed, values = parse(self.app, argv)
            for garg in GLOBAL_ARGS:
                values.pop(garg.dest, None)
            assert parsed is not None  # argv always names a command
            return envelope_of(parsed, parsed.resolve()(values, parsed))
        except Exception as exc:  # noqa: BLE001 - becomes the CLI's error envelope, as in main
            return failure(exc)

    def _wrong_type(self, cmd: Command, arg: Arg, value: Any) -> UsageError:
        wanted = value_schema(arg)["type"]
        return UsageError(
            f"{self.name(cmd)}: {arg.dest} must be of type {wanted}, got {value!r}",
            suggestion=f"see the input schema of {self.name(cmd)}",
        )

    def _text(self, cmd: Command, arg: Arg, value: Any) -> str:
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise self._wrong_type(cmd, arg, value)
        return str(value)


def envelope_of(cmd: Command, result: Any) -> Envelope:
    """A handler's result as the envelope and exit code the CLI would print: an answer
    rendered elsewhere (a supervisor's) as it came, a stream as its messages, a report as
    its JSON."""
    if isinstance(result, Raw):
        return json.loads(result.text), result.exit_code
    if isinstance(result, Outcome) and isinstance(result.payload, Raw):
        return json.loads(result.payload.text), result.exit_code
    if isinstance(result, Stream):  # what the CLI prints as NDJSON lines
        return answer({"messages": list(result.items)})
    if cmd.mode == "report":
        code = result.exit_code if isinstance(result, Outcome) else 0
        report = result.payload if isinstance(result, Outcome) else result
        return answer(Outcome(report.to_dict(), code))
    return answer(result)


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def value_schema(arg: Arg) -> dict[str, Any]:
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
