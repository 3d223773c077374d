"""One declaration per command, and what is derived from it: the parser and `capabilities`.

A declaration names its handler as "module:function" so that importing the
declarations stays cheap; the handler module is imported only when it runs.
"""

import sys

from agentcli.errors import BASE_ERRORS, AgentError

# Plain classes, not dataclasses: `dataclasses` imports `inspect`, which alone costs
# more than the CLI's whole start-up budget. `typing` is only read by mypy.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping
    from typing import Any, Literal

    ArgType = Literal[
        "string", "integer", "number", "boolean", "path", "duration", "key_value", "remainder"
    ]
    Mode = Literal["envelope", "report", "stream"]
    Kind = Literal["text", "words", "number", "seconds", "bytes", "percent", "time"]


class Arg:
    """One positional argument (name without dashes) or option (name with dashes).

    A `local` option is acted on by the calling process itself (how the answer is shown,
    or a terminal session after it): no program's call (MCP, REST) takes it, and a server
    answering the command from argv leaves it to the CLI when it is set.
    """

    __slots__ = (
        "choices",
        "default",
        "help",
        "local",
        "metavar",
        "multiple",
        "name",
        "required",
        "short",
        "type",
    )

    def __init__(
        self,
        name: "str",
        help: "str",
        *,
        type: "ArgType" = "string",
        required: "bool" = False,
        default: "Any" = None,
        choices: "tuple[str, ...]" = (),
        multiple: "bool" = False,
        short: "str" = "",
        metavar: "str" = "",
        local: "bool" = False,
    ) -> "None":
        self.name = name
        self.help = help
        self.type = type
        self.required = required
        self.default = default
        self.choices = choices
        self.multiple = multiple
        self.short = short
        self.metavar = metavar
        self.local = local

    @property
    def positional(self) -> "bool":
        return not self.name.startswith("-")

    @property
    def dest(self) -> "str":
        return self.name.lstrip("-").replace("-", "_")

    @property
    def flags(self) -> "list[str]":
        return [f for f in (self.short, self.name) if f] if not self.positional else [self.name]


class Field:
    """One field of a file a command reads (a column of a rules file): what it means, and
    the values it takes, each with its meaning (none: any text)."""

    __slots__ = ("default", "help", "name", "required", "values")

    def __init__(
        self,
        name: "str",
        help: "str",
        *,
        values: "tuple[tuple[str, str], ...]" = (),
        default: "str" = "",
        required: "bool" = False,
    ) -> "None":
        self.name = name
        self.help = help
        self.values = values
        self.default = default
        self.required = required


class FileFormat:
    """A file a command reads through one of its arguments, described field by field, so
    that `--help` and `capabilities` say what the file may hold."""

    __slots__ = ("argument", "fields", "name", "summary")

    def __init__(
        self, name: "str", argument: "str", summary: "str", fields: "tuple[Field, ...]"
    ) -> "None":
        self.name = name
        self.argument = argument
        self.summary = summary
        self.fields = fields

    def field(self, name: "str") -> "Field":
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)


class Column:
    """One column of a command's table view (`--format table`).

    `key` finds the value in a row: a dotted path (`health.status`), or alternatives
    separated by `|` (`command|args`: the first that is set). `kind` says how a value is
    shown: text (a list joined by commas), words (a list joined by spaces: an argv),
    number, seconds (a duration: 5m13s), bytes (21.5 MiB), percent, time (an ISO
    timestamp or epoch seconds, in local time). `styles` colours a value at a terminal: a
    mapping (e.g. {"failed": "bold red"}) or, so declarations stay cheap to import, the
    "module:name" of one, loaded only when a table is printed. `width` caps a text column
    (longer text ends with an ellipsis).
    """

    __slots__ = ("key", "kind", "styles", "title", "width")

    def __init__(
        self,
        title: "str",
        key: "str" = "",
        *,
        kind: "Kind" = "text",
        styles: "Mapping[str, str] | str" = "",
        width: "int" = 0,
    ) -> "None":
        self.title = title
        self.key = key or title.replace(" ", "_")
        self.kind = kind
        self.styles = styles
        self.width = width


class Table:
    """One table of a command's table view: the rows at `rows` in the answer (a dotted
    key, `a|b` alternatives; "" or a key the answer lacks: the answer itself, one row
    when it is an object), shown as `columns`, under `title` when it has one."""

    __slots__ = ("columns", "empty", "rows", "title")

    def __init__(
        self,
        columns: "tuple[Column, ...]",
        rows: "str" = "",
        *,
        title: "str" = "",
        empty: "str" = "none",
    ) -> "None":
        self.columns = columns
        self.rows = rows
        self.title = title
        self.empty = empty  # what stands in for no rows


class TableView:
    """A command's table view (`--format table`): its tables, from the same answer JSON
    carries. `each` names a list in the answer whose items are answers of their own (a
    process with replicas: one per instance): the tables are then shown for each item,
    under its name. `notes` are keys of the answer said under the tables when present (a
    warning beside the rows; an object shows its `message`)."""

    __slots__ = ("each", "notes", "tables")

    def __init__(self, *tables: "Table", each: "str" = "", notes: "tuple[str, ...]" = ()) -> "None":
        self.tables = tables
        self.each = each
        self.notes = notes


class Command:
    """Everything about one command; the CLI, capabilities, REST and MCP derive from it.

    `handler` is "module:function", called as function(values, command); the module is
    imported only when the command runs, so declarations stay cheap to import.
    """

    def __init__(
        self,
        name: "str",
        summary: "str",
        handler: "str",
        *,
        args: "tuple[Arg, ...]" = (),
        idempotent: "bool" = True,
        destructive: "bool" = False,
        read_only: "bool" = False,
        secret: "bool" = False,
        dry_run_first: "bool" = False,
        examples: "tuple[str, ...]" = (),
        errors: "tuple[type[AgentError], ...]" = (),
        output: "Mapping[str, Any] | None" = None,
        mode: "Mode" = "envelope",
        files: "tuple[FileFormat, ...]" = (),
        document: "bool" = False,
        table: "TableView | None" = None,
    ) -> "None":
        self.name = name
        # split once: the parser compares them with every command for each request a
        # supervisor's REST listener answers
        self.words = name.split()
        self.summary = summary
        self.handler = handler
        self.args = args
        self.idempotent = idempotent
        self.destructive = destructive
        self.read_only = read_only  # changes nothing: safe to call at any time
        # its answer holds secrets (environment values): a caller allowed only to read
        # (a read-only listener's token) is never given it
        self.secret = secret
        # writes files: its real run comes after a dry run with the same arguments (the
        # skills say so; an MCP server holds a call to it)
        self.dry_run_first = dry_run_first
        self.examples = examples
        self.errors = errors
        self.output: Mapping[str, Any] = output or {}
        self.mode = mode
        self.files = files  # the files its arguments name, field by field
        # a report command that can print its document instead (--stdout or -o -), its
        # report then going to stderr or --report FILE; its handler returns a Document
        self.document = document
        # Its table view for a person (`--format table`), rendered by agentcli.table from
        # the same answer JSON carries; None: JSON only.
        self.table = table

    def resolve(self) -> "Callable[[dict[str, Any], Command], Any]":
        # __import__ rather than importlib: importlib costs ~1 ms of start-up to load.
        module, _, func = self.handler.partition(":")
        __import__(module)
        return getattr(sys.modules[module], func)  # type: ignore[no-any-return]

    def all_errors(self) -> "list[type[AgentError]]":
        seen: dict[str, type[AgentError]] = {}
        for err in (*self.errors, *BASE_ERRORS):
            seen.setdefault(err.code, err)
        return list(seen.values())


class App:
    """A tool: its name, version and commands."""

    def __init__(
        self,
        name: "str",
        version: "str",
        description: "str",
        commands: "tuple[Command, ...]",
        global_args: "tuple[Arg, ...]" = (),
        terms: "dict[str, str] | str" = "",
    ) -> "None":
        self.name = name
        self.version = version
        self.description = description
        self.commands = commands
        self.global_args = global_args
        # words the answers use with a precise meaning (a status...): term -> definition,
        # or "module:NAME" of such a mapping (imported only when `capabilities` asks)
        self.terms = terms

    def term_definitions(self) -> "dict[str, str]":
        if isinstance(self.terms, dict):
            return dict(self.terms)
        if not self.terms:
            return {}
        module, _, name = self.terms.partition(":")
        return dict(getattr(__import__(module, fromlist=[name]), name))

    def command(self, name: "str") -> "Command":
        for cmd in self.commands:
            if cmd.name == name:
                return cmd
        raise KeyError(name)


class Outcome:
    """A handler result that also chooses the exit code (e.g. findings -> 1)."""

    def __init__(self, payload: "Any", exit_code: "int" = 0) -> "None":
        self.payload = payload
        self.exit_code = exit_code


class Stream:
    """A handler result printed as NDJSON, one object per line, until exhausted."""

    def __init__(self, items: "Iterator[Mapping[str, Any]]", exit_code: "int" = 0) -> "None":
        self.items = items
        self.exit_code = exit_code


class Document:
    """A document for stdout (e.g. Markdown) and the report about it, which goes to stderr as
    one JSON line, or to `--report FILE`."""

    def __init__(self, text: "str", report: "Any", exit_code: "int" = 0) -> "None":
        self.text = text
        self.report = report
        self.exit_code = exit_code


class Raw:
    """Text already rendered elsewhere (e.g. by a supervisor), passed through verbatim."""

    def __init__(self, text: "str", exit_code: "int" = 0) -> "None":
        self.text = text
        self.exit_code = exit_code


REPORT_ARGS: "tuple[Arg, ...]" = (
    Arg(
        "--format",
        "output format of the report",
        short="-f",
        default="json",
        choices=("json", "markdown", "html", "csv"),
    ),
    Arg("--output", "write the report to this file instead of stdout", short="-o", type="path"),
)


# What a command with a table view adds. No default: JSON unless asked, and at a terminal
# the tool's variable (PROCLER_FORMAT for procler) may ask.
TABLE_FORMAT = Arg(
    "--format",
    "json (the default), or table: aligned columns for a person, coloured at a terminal "
    "unless NO_COLOR is set; at a terminal, the tool's <TOOL>_FORMAT variable (e.g. "
    "PROCLER_FORMAT=table) makes table the default",
    short="-f",
    choices=("json", "table"),
    local=True,
)
DOCUMENT_ARGS: "tuple[Arg, ...]" = (
    REPORT_ARGS[0],
    Arg(
        "--output",
        "write the report to this file instead of stdout; `-o -` prints the document itself (as --stdout)",
        short="-o",
        type="path",
    ),
    Arg(
        "--stdout",
        "print the document on stdout (one input); the report goes to stderr as one JSON line, or to --report",
        type="boolean",
    ),
    Arg("--report", "write the report to this file (in --format)", type="path", metavar="FILE"),
)


def command_args(cmd: "Command") -> "tuple[Arg, ...]":
    """The arguments a command really takes, including those its mode and table view add."""
    if cmd.mode == "report":
        return cmd.args + (DOCUMENT_ARGS if cmd.document else REPORT_ARGS)
    return cmd.args + ((TABLE_FORMAT,) if cmd.table else ())


def call_args(cmd: "Command") -> "tuple[Arg, ...]":
    """The arguments a program's call takes (MCP, REST): command_args without the local
    ones (the table view, a terminal session), which only a person at a terminal wants."""
    return tuple(a for a in command_args(cmd) if not a.local)


def asks_local(cmd: "Command", values: "dict[str, Any]") -> "bool":
    """Whether parsed values set an option the calling process acts on (see Arg.local)."""
    return any(values.get(a.dest) not in (None, False) for a in command_args(cmd) if a.local)


def formats(cmd: "Command") -> "list[str]":
    """What a command can print: capabilities says which commands have a table view."""
    if cmd.mode == "report":
        return list(REPORT_ARGS[0].choices)
    if cmd.mode == "stream":
        return ["ndjson"]
    return list(TABLE_FORMAT.choices) if cmd.table else ["json"]


def format_variable(app: "App") -> "str":
    """The environment variable that makes a person's terminal get tables: PROCLER_FORMAT."""
    return app.name.upper().replace("-", "_") + "_FORMAT"


def arg_schema(arg: "Arg") -> "dict[str, Any]":
    """Describe one argument for capabilities."""
    out: dict[str, Any] = {
        "name": arg.dest,
        "kind": "positional" if arg.positional else "option",
        "flags": arg.flags,
        "type": arg.type,
        "required": arg.required,
        "multiple": arg.multiple,
        "help": arg.help,
    }
    if arg.default is not None:
        out["default"] = arg.default
    if arg.choices:
        out["choices"] = list(arg.choices)
    if arg.local:
        out["local"] = True  # for a person at a terminal: no MCP or REST call takes it
    return out


def file_schema(fmt: "FileFormat") -> "dict[str, Any]":
    """Describe a file a command reads, for capabilities."""
    fields = []
    for f in fmt.fields:
        out: dict[str, Any] = {"name": f.name, "help": f.help, "required": f.required}
        if f.default:
            out["default"] = f.default
        if f.values:
            out["values"] = dict(f.values)
        fields.append(out)
    return {"name": fmt.name, "argument": fmt.argument, "summary": fmt.summary, "fields": fields}


def error_schema(err: "type[AgentError]") -> "dict[str, Any]":
    return {"code": err.code, "exit_code": int(err.exit_code), "suggestion": err.default_suggestion}


def command_schema(cmd: "Command") -> "dict[str, Any]":
    """One command as `capabilities` describes it (its errors by code)."""
    described: dict[str, Any] = {
        "name": cmd.name,
        "summary": cmd.summary,
        "mode": cmd.mode,
        "idempotent": cmd.idempotent,
        "destructive": cmd.destructive,
        "read_only": cmd.read_only,
        "secret": cmd.secret,
        "document": cmd.document,
        "dry_run_first": cmd.dry_run_first,
        "arguments": [arg_schema(a) for a in command_args(cmd)],
        "formats": formats(cmd),
        "examples": list(cmd.examples),
        "errors": [e.code for e in cmd.all_errors()],
        "output_schema": dict(cmd.output),
    }
    if cmd.files:
        described["file_formats"] = [file_schema(f) for f in cmd.files]
    return described


def capabilities(app: "App") -> "dict[str, Any]":
    """JSON describing every command, option, type, error code and the exit-code table."""
    from agentcli.envelope import ENVELOPE_SCHEMA, SCHEMA_VERSION
    from agentcli.errors import EXIT_CODE_MEANINGS

    all_errors: dict[str, type[AgentError]] = {}
    commands = []
    for cmd in app.commands:
        for err in cmd.all_errors():
            all_errors.setdefault(err.code, err)
        commands.append(command_schema(cmd))
    return {
        "tool": app.name,
        "version": app.version,
        "schema_version": SCHEMA_VERSION,
        "description": app.description,
        "global_arguments": [arg_schema(a) for a in app.global_args],
        "commands": commands,
        "errors": [error_schema(e) for e in sorted(all_errors.values(), key=lambda e: e.code)],
        "exit_codes": {str(int(k)): v for k, v in EXIT_CODE_MEANINGS.items()},
        "envelope_schema": ENVELOPE_SCHEMA,
        **({"terms": terms} if (terms := app.term_definitions()) else {}),
    }
