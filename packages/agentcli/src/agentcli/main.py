"""The one place where results and exceptions become envelopes and exit codes: `run(app,
argv)` and `main(app)` for a CLI (`conclude` for an entry that fails before `run`), and
`answer` / `failure` for any server that runs the same commands."""

import sys

from agentcli import envelope
from agentcli.commands import (
    App,
    Command,
    Document,
    Outcome,
    Raw,
    Stream,
    capabilities,
    command_args,
    format_variable,
)
from agentcli.errors import AgentError, InternalError, Interrupted, UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any, NoReturn


def _capabilities_command(app: "App") -> "Command":
    from agentcli.commands import Arg

    return Command(
        "capabilities",
        "describe every command, option, type, error code and exit code as JSON; with a "
        "command's name, that command (what its --help says, as `--help -f json` does)",
        "agentcli.main:capabilities_handler",
        args=(Arg("command", "one command's words, e.g. `logs`", multiple=True),),
        examples=(f"{app.name} capabilities", f"{app.name} capabilities {app.commands[0].name}"),
        output={"type": "object", "description": "the capabilities document"},
        read_only=True,
    )


def with_builtins(app: "App") -> "App":
    """The app plus the commands every tool has (capabilities)."""
    if any(c.name == "capabilities" for c in app.commands):
        return app
    cmds = (*app.commands, _capabilities_command(app))
    return App(app.name, app.version, app.description, cmds, app.global_args, app.terms)


def capabilities_answer(app: "App") -> "str":
    """What `TOOL capabilities` prints when stdout is not a terminal: its envelope as one
    line. A tool may ship it as data generated at build time and print it from its entry
    without loading its declarations (at a terminal, emit_text indents it as emit would)."""
    return envelope.dumps(envelope.build(True, data=capabilities(with_builtins(app)))) + "\n"


def capabilities_handler(values: "dict[str, Any]", command: "Command") -> "Any":
    raise InternalError("capabilities is answered by agentcli.main.run")


def error_envelope(err: "AgentError") -> "dict[str, Any]":
    return envelope.build(
        False, data=err.data, error=err.message, error_code=err.code, suggestion=err.suggestion
    )


def internal_error(exc: "BaseException") -> "InternalError":
    """A one-line INTERNAL error for an exception nobody expected."""
    first_line = (str(exc).splitlines() or [""])[0]
    return InternalError(f"{type(exc).__name__}: {first_line}".rstrip(": "))


def answer(result: "Any") -> "tuple[dict[str, Any], int]":
    """The envelope and exit code for a handler's result (plain data or Outcome)."""
    exit_code = 0
    if isinstance(result, Outcome):
        result, exit_code = result.payload, result.exit_code
    return envelope.build(exit_code == 0, data=result), exit_code


def failure(exc: "BaseException") -> "tuple[dict[str, Any], int]":
    """The envelope and exit code for any exception: the one mapping every entry point uses."""
    if isinstance(exc, AgentError):
        return error_envelope(exc), int(exc.exit_code)
    if isinstance(exc, KeyboardInterrupt):
        return error_envelope(Interrupted("interrupted")), int(Interrupted.exit_code)
    return error_envelope(internal_error(exc)), int(InternalError.exit_code)


def presentation(app: "App", cmd: "Command", values: "dict[str, Any]") -> "str":
    """How the answer is printed: json, or table (a command with a table view, asked by
    --format, or at a terminal by the tool's variable). Taken out of values, so handlers
    (and a server they forward to) never see it."""
    if cmd.table is None:
        return "json"
    asked = values.pop("format", None)
    if asked:
        return str(asked)
    if not sys.stdout.isatty():
        return "json"  # a program reads it: the variable is for a person's terminal
    import os

    variable = format_variable(app)
    wanted = os.environ.get(variable, "")
    if wanted in ("", "json", "table"):
        return wanted or "json"
    raise UsageError(
        f"${variable} is {wanted!r}, which is not an output format",
        suggestion=f"set {variable} to json or table, or unset it",
    )


def _render(
    cmd: "Command", values: "dict[str, Any]", result: "Any", shown: "str" = "json"
) -> "int":
    exit_code = 0
    if isinstance(result, Outcome):
        result, exit_code = result.payload, result.exit_code
    if isinstance(result, Document):
        _render_document(values, result)
        return result.exit_code
    if isinstance(result, Raw):
        if shown == "table":
            import json

            env = json.loads(result.text)
            if env.get("success"):
                _table(cmd, env.get("data"))
                return result.exit_code
        envelope.emit_text(result.text)
        return result.exit_code
    if isinstance(result, Stream):
        try:
            for item in result.items:
                envelope.write_stdout(envelope.dumps(item))
        except KeyboardInterrupt:
            return int(Interrupted.exit_code)  # stdout stays valid NDJSON: no envelope
        return result.exit_code
    if cmd.mode == "report":
        from agentcli.report import Report, write_report

        if not isinstance(result, Report):
            raise TypeError(f"{cmd.name} must return a Report")
        write_report(result, values.get("format") or "json", values.get("output"))
        return exit_code
    if shown == "table" and exit_code == 0:
        _table(cmd, result)
        return exit_code
    envelope.emit(envelope.build(exit_code == 0, data=result))
    return exit_code


def _table(cmd: "Command", data: "Any") -> "None":
    """A successful answer as the command's table view (errors stay envelopes)."""
    import os

    from agentcli.table import render

    assert cmd.table is not None
    colour = sys.stdout.isatty() and "NO_COLOR" not in os.environ
    envelope.write_stdout(render(cmd.table, data, colour=colour))


def _render_document(values: "dict[str, Any]", result: "Document") -> "None":
    """The document on stdout; its report to --report FILE, else to stderr as one JSON line."""
    from agentcli.report import write_report

    if result.text:
        envelope.write_stdout(result.text)
    if values.get("report"):
        write_report(result.report, values.get("format") or "json", values["report"])
    else:
        envelope.write_stderr_line(envelope.dumps(result.report.to_dict()))


def _document_mode(values: "dict[str, Any]") -> "None":
    """`-o -` means --stdout. With --stdout, envelopes go to stderr and the report to
    --report FILE (or stderr); without it, --report FILE is the report file, as -o is."""
    if values.get("output") == "-":
        values["output"], values["stdout"] = None, True
    if values["stdout"]:
        envelope.divert_to_stderr()
        if values["output"]:
            raise UsageError(
                f"-o {values['output']} with --stdout: stdout carries the document",
                suggestion="write the report with --report FILE",
            )
    elif values["report"]:
        if values["output"] and values["output"] != values["report"]:
            raise UsageError(
                "-o and --report name two report files", suggestion="give only one of them"
            )
        values["output"] = values["report"]


def _asks_for_document(app: "App", args: "list[str]") -> "bool":
    """Whether argv asks a document command for its document on stdout (looked at only when
    argv could not be parsed, so that even that error keeps off stdout)."""
    if not any(cmd.document for cmd in app.commands):
        return False
    pairs = zip(args, [*args[1:], ""], strict=True)
    return "--stdout" in args or any(
        (a in ("-o", "--output") and b == "-") or a in ("-o-", "--output=-") for a, b in pairs
    )


def run(app: "App", argv: "Sequence[str] | None" = None) -> "int":
    """Parse, dispatch and render; return the exit code. Never lets an exception escape."""
    from agentcli.parser import asks_json, help_document, help_text

    app = with_builtins(app)
    args = list(sys.argv[1:] if argv is None else argv)
    envelope.divert_to_stderr(False)
    debug = "--debug" in args
    try:
        cmd, values = _parse_for_help(app, args)
        if values.pop("help"):
            if asks_json(args):
                envelope.emit(envelope.build(True, data=help_document(app, cmd)))
            else:
                sys.stdout.write(help_text(app, cmd))
            return 0
        if values.pop("version") or cmd is None:
            sys.stdout.write(f"{app.name} {app.version}\n")
            return 0
        verbosity = int(values.pop("verbose")) - int(values.pop("quiet"))
        if verbosity:
            from agentcli.logs import setup_logging

            setup_logging(verbosity)
        debug = bool(values.pop("debug"))
        if cmd.name == "capabilities":
            return _render(cmd, values, _capabilities(app, values.get("command") or []))
        if cmd.document:
            _document_mode(values)
        if cmd.mode == "report" and (values.get("output") or values.get("report")):
            _check_report_output(cmd, values)
        shown = presentation(app, cmd, values)
        return _render(cmd, values, cmd.resolve()(values, cmd), shown)
    except (Exception, KeyboardInterrupt) as exc:  # noqa: BLE001 - see conclude
        if _asks_for_document(app, args):
            envelope.divert_to_stderr()
        return conclude(app.name, exc, debug)


def _parse_for_help(app: "App", args: "list[str]") -> "tuple[Command | None, dict[str, Any]]":
    """parse(), but `--help -f json` is taken whatever -f means to the command (or when
    it has none): the format words are dropped when they alone stop the parse."""
    from agentcli.parser import asks_json, parse, without_format

    try:
        return parse(app, args)
    except UsageError:
        if not (asks_json(args) and ("--help" in args or "-h" in args)):
            raise
        return parse(app, without_format(args))


def _capabilities(app: "App", words: "list[str]") -> "dict[str, Any]":
    """The whole document, or one command's (its help as JSON) when words name one."""
    if not words:
        return capabilities(app)
    from agentcli.parser import find_command, help_document

    cmd, used, _ = find_command(app, words)
    if cmd is None or used != len(words):
        from agentcli.parser import did_you_mean

        asked = " ".join(words)
        hint = did_you_mean(asked, [c.name for c in app.commands])
        raise UsageError(
            f"{app.name} capabilities: no command {asked!r}",
            suggestion=hint or f"`{app.name} capabilities` lists every command",
        )
    return help_document(app, cmd)


REPORT_FILES = {"output": "-o", "report": "--report"}


def _check_report_output(cmd: "Command", values: "dict[str, Any]") -> "None":
    """Refuse `-o` (or `--report`) before any work when it is a folder, has no folder, or is
    a path input."""
    from pathlib import Path

    from agentcli.outputs import check_output_file

    inputs: list[Path] = []
    for arg in command_args(cmd):
        value = values.get(arg.dest)
        if arg.type != "path" or arg.dest in REPORT_FILES or not value:
            continue
        inputs += [Path(v) for v in value] if arg.multiple else [Path(value)]
    for dest, label in REPORT_FILES.items():
        if values.get(dest):
            check_output_file(values[dest], inputs, label)


def conclude(tool: "str", exc: "BaseException", debug: "bool" = False) -> "int":
    """The one place a CLI's exceptions become an envelope on stdout and an exit code."""
    if isinstance(exc, BrokenPipeError):
        _silence_stdout()  # the reader went away (e.g. `| head`); nothing more to say
        return 0
    expected = isinstance(exc, AgentError | KeyboardInterrupt)
    if debug and not isinstance(exc, UsageError | KeyboardInterrupt):
        import traceback

        traceback.print_exception(exc, file=sys.stderr)
    elif not expected:
        print(f"{tool}: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
    env, code = failure(exc)
    envelope.emit(env)
    return code


def _silence_stdout() -> "None":
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


# The signals an interrupt was raised for. Python ignores an exception raised in a
# finalizer (`__del__`, a weakref callback) after printing it, and a signal handled while one
# runs raises its KeyboardInterrupt there: check_interrupt raises it again.
_SIGNALLED: "list[int]" = []


def _interrupt(signum: "int", frame: "object") -> "None":
    _SIGNALLED.append(signum)
    raise KeyboardInterrupt


def interrupt_on_sigterm() -> "None":
    """Make SIGTERM interrupt like SIGINT (KeyboardInterrupt, exit 130), so `finally`
    blocks remove temporary files on both; tools that write files call this first, and call
    check_interrupt between the files and pages of a long run."""
    import signal

    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _interrupt)


def check_interrupt() -> "None":
    """Raise KeyboardInterrupt if SIGINT or SIGTERM came (at a point where raising is safe:
    between files, between pages), in case its own was swallowed by a finalizer."""
    if _SIGNALLED:
        raise KeyboardInterrupt


def main(app: "App") -> "NoReturn":
    """Console-script entry: run and exit with the code."""
    envelope.leave(run(app))
