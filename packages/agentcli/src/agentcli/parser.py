"""A small argument parser generated from command declarations.

argparse costs ~16 ms to import (it pulls in `re` and `enum`), more than the whole
start-up budget of a status command, so the tools parse with this instead. Every
problem raises UsageError with a did-you-mean suggestion; nothing is printed here.
"""

from agentcli.commands import App, Arg, Command, command_args
from agentcli.errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

GLOBAL_ARGS: "tuple[Arg, ...]" = (
    Arg("--debug", "print tracebacks of unexpected errors on stderr", type="boolean"),
    Arg("--verbose", "more log output on stderr", type="boolean", short="-v"),
    Arg("--quiet", "only errors on stderr", type="boolean", short="-q"),
    Arg("--help", "show help for the tool or a command and exit", type="boolean", short="-h"),
    Arg("--version", "show the version and exit", type="boolean"),
)


def converter(arg_type: "str") -> "Callable[[str], Any] | None":
    """The function turning a raw string into a value of this type (None: keep the string).

    An integer argument is a count (0 or more, bounded): no option takes a negative one.
    """
    if arg_type in ("duration", "key_value", "integer"):
        from agentcli import values  # imported only when such an argument is given

        return {
            "duration": values.parse_duration,
            "key_value": values.parse_key_value,
            "integer": values.parse_count,
        }[arg_type]
    conversions: dict[str, Callable[[str], Any]] = {"number": float, "path": checked_path}
    return conversions.get(arg_type)


NAME_MAX = 255  # bytes in one path component (Linux, macOS); the OS refuses longer ones


def checked_path(raw: "str") -> "str":
    """The path as given, refused when a component is longer than the OS allows."""
    for part in raw.split("/"):
        if len(part.encode("utf-8", "surrogateescape")) > NAME_MAX:
            raise ValueError(f"a name in the path is longer than {NAME_MAX} bytes")
    return raw


def did_you_mean(word: "str", choices: "Sequence[str]") -> "str":
    """Return 'did you mean X?' for the closest choice, or '' when nothing is close. A word
    that begins exactly one choice and is close to none (`completed`, of
    `completed_successfully`: too short for difflib's ratio) is taken as its start."""
    import difflib  # only on the error path

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    if not close and word:
        close = [choice for choice in choices if choice.startswith(word)]
    return f"did you mean {close[0]}?" if len(close) == 1 else ""


def _usage(message: "str", word: "str", choices: "Sequence[str]", what: "str") -> "UsageError":
    hint = did_you_mean(word, choices)
    listed = f"valid {what}: {', '.join(choices)}" if choices else ""
    return UsageError(message, suggestion=" ".join(p for p in (hint, listed) if p))


def _check_text(cmd_name: "str", label: "str", raw: "str") -> "str":
    """Refuse a text value that is not UTF-8 (Python hands its bytes over as surrogates):
    no JSON answer, stored definition or environment could carry it. Paths are exempt: a
    file's name may be any bytes, and the envelope escapes them."""
    if raw.isascii():
        return raw
    try:
        raw.encode("utf-8")
    except UnicodeEncodeError:
        shown = raw.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        raise UsageError(
            f"{cmd_name}: {label} is not valid UTF-8: '{shown}'",
            suggestion=f"pass {label} as UTF-8 text",
        ) from None
    return raw


def find_command(app: "App", words: "list[str]") -> "tuple[Command | None, int, list[str]]":
    """Longest declared command matching the leading words; also the choices at the miss."""
    best: Command | None = None
    used = 0
    for cmd in app.commands:
        n = len(cmd.words)
        if n > used and words[:n] == cmd.words:
            best, used = cmd, n
    if best is not None:
        return best, used, []
    depth = 0
    while any(
        c.words[: depth + 1] == words[: depth + 1] for c in app.commands if len(c.words) > depth
    ):
        depth += 1
    choices = sorted(
        {
            c.words[depth]
            for c in app.commands
            if c.words[:depth] == words[:depth] and len(c.words) > depth
        }
    )
    return None, depth, choices


def convert(cmd_name: "str", arg: "Arg", raw: "str") -> "Any":
    label = arg.flags[-1] if not arg.positional else arg.name.upper()
    if arg.type != "path":
        _check_text(cmd_name, label, raw)
    if arg.choices and raw not in arg.choices:
        raise _usage(f"{cmd_name}: invalid value {raw!r} for {label}", raw, arg.choices, "choices")
    conv = converter(arg.type)
    if conv is None:
        return raw
    try:
        return conv(raw)
    except ValueError as exc:
        raise UsageError(
            f"{cmd_name}: invalid {arg.type} value {raw!r} for {label}: {exc}",
            suggestion=f"give {label} a valid {arg.type}",
        ) from None


def _remainder(prog: "str", arg: "Arg", tokens: "list[str]") -> "list[str]":
    return [_check_text(prog, arg.name.upper(), tok) for tok in tokens]


def _store(values: "dict[str, Any]", arg: "Arg", value: "Any") -> "None":
    if arg.multiple:
        values.setdefault(arg.dest, []).append(value)
    else:
        values[arg.dest] = value


def parse(app: "App", argv: "Sequence[str]") -> "tuple[Command | None, dict[str, Any]]":
    """Parse argv into (command, values). command is None only for --help/--version alone."""
    tokens = list(argv)
    flags_global = {f: a for a in GLOBAL_ARGS + app.global_args for f in a.flags}
    values: dict[str, Any] = {
        a.dest: False if a.type == "boolean" else ([] if a.multiple else a.default)
        for a in GLOBAL_ARGS + app.global_args
    }
    words: list[str] = []
    while tokens and tokens[0].partition("=")[0] in flags_global:
        name, eq, inline = tokens.pop(0).partition("=")
        garg = flags_global[name]
        if garg.type == "boolean":
            values[garg.dest] = True
            continue
        if not eq:
            if not tokens:
                raise UsageError(
                    f"{app.name}: {name} needs a value", suggestion=f"write {name} VALUE"
                )
            inline = tokens.pop(0)
        _store(values, garg, convert(app.name, garg, inline))
    while tokens and not tokens[0].startswith("-"):
        words.append(tokens.pop(0))
    cmd, used, choices = find_command(app, words)
    if cmd is None:
        if values["help"] or values["version"]:
            return None, values
        if words[used : used + 1]:
            bad = words[used]
            raise _usage(
                f"{app.name}: unknown command {' '.join(words[: used + 1])!r}",
                bad,
                choices,
                "commands",
            )
        if tokens:
            raise _usage(
                f"{app.name}: unrecognized argument {tokens[0]!r}",
                tokens[0],
                sorted(flags_global),
                "options",
            )
        raise _usage(f"{app.name}: a command is required", "", choices, "commands")
    tokens = words[used:] + tokens
    args = command_args(cmd)
    prog = f"{app.name} {cmd.name}"
    for arg in args:
        values[arg.dest] = False if arg.type == "boolean" else ([] if arg.multiple else arg.default)
        if isinstance(arg.default, str) and arg.type in ("duration", "integer", "number"):
            values[arg.dest] = convert(prog, arg, arg.default)
    by_flag = {f: a for a in args if not a.positional for f in a.flags}
    by_flag.update(flags_global)
    positionals = [a for a in args if a.positional]
    seen: set[str] = set()
    while tokens:
        tok = tokens.pop(0)
        if (
            positionals
            and positionals[0].type == "remainder"
            and (tok == "--" or not tok.startswith("-"))
        ):
            arg = positionals.pop(0)
            values[arg.dest] = _remainder(prog, arg, ([] if tok == "--" else [tok]) + tokens)
            tokens = []
        elif tok == "--":
            if positionals and positionals[-1].type == "remainder":
                arg = positionals.pop()
                values[arg.dest] = _remainder(prog, arg, tokens)
                tokens = []
            else:
                for rest in tokens:
                    _take_positional(prog, positionals, values, seen, rest)
                tokens = []
        elif tok.startswith("-") and tok != "-" and not _is_number(tok):
            name, eq, inline = tok.partition("=")
            if (
                name not in by_flag
                and not name.startswith("--")
                and len(name) > 2
                and name[:2] in by_flag
            ):
                name, eq, inline = name[:2], "=", tok[2:]
            if name not in by_flag:
                known = sorted(by_flag)
                raise _usage(f"{prog}: unrecognized argument {name!r}", name, known, "options")
            arg = by_flag[name]
            if arg.type == "boolean":
                if eq:
                    raise UsageError(
                        f"{prog}: {name} takes no value", suggestion=f"write {name} alone"
                    )
                values[arg.dest] = True
                continue
            if not eq:
                if not tokens:
                    raise UsageError(
                        f"{prog}: {name} needs a value", suggestion=f"write {name} VALUE"
                    )
                inline = tokens.pop(0)
            _store(values, arg, convert(prog, arg, inline))
            seen.add(arg.dest)
        else:
            _take_positional(prog, positionals, values, seen, tok)
    if values["help"] or values["version"]:
        return cmd, values
    missing = [a for a in args if a.required and a.dest not in seen]
    if missing:
        names = ", ".join(a.flags[-1] if not a.positional else a.name.upper() for a in missing)
        raise UsageError(
            f"{prog}: missing required argument(s): {names}", suggestion=f"see `{prog} --help`"
        )
    return cmd, values


def _is_number(tok: "str") -> "bool":
    return tok[1:2].isdigit()


def _take_positional(
    prog: "str", positionals: "list[Arg]", values: "dict[str, Any]", seen: "set[str]", tok: "str"
) -> "None":
    if not positionals:
        raise UsageError(f"{prog}: unexpected argument {tok!r}", suggestion=f"see `{prog} --help`")
    arg = positionals[0]
    if arg.type == "remainder":
        values[arg.dest] = _remainder(prog, arg, [tok])
        positionals.pop(0)
        return
    _store(values, arg, convert(prog, arg, tok))
    seen.add(arg.dest)
    if not arg.multiple:
        positionals.pop(0)


def usage_line(app: "App", cmd: "Command") -> "str":
    """`tool command ARG [--option VALUE] ...`: the command's arguments in one line."""
    usage = [f"{app.name} {cmd.name}"]
    for a in command_args(cmd):
        shown = (
            a.name.upper()
            if a.positional
            else f"{a.flags[-1]}"
            + ("" if a.type == "boolean" else f" {a.metavar or a.type.upper()}")
        )
        if a.type == "remainder":
            shown = "[-- CMD ARGS...]"
        usage.append(shown if a.required else f"[{shown}]")
    return " ".join(usage)


def help_document(app: "App", cmd: "Command | None") -> "dict[str, Any]":
    """What `--help` says, as JSON (`--help -f json`, `capabilities COMMAND`): the tool's
    commands, or one command as capabilities describes it with its usage line. The plain
    help is this document rendered (help_text), so the two never say different things."""
    from agentcli.commands import arg_schema, command_schema

    if cmd is None:
        return {
            "tool": app.name,
            "version": app.version,
            "usage": f"{app.name} [--debug] [-v|-q] COMMAND ...",
            "description": app.description,
            "commands": [{"name": c.name, "summary": c.summary} for c in app.commands],
            "global_arguments": [arg_schema(a) for a in GLOBAL_ARGS + app.global_args],
            "more": f"Run `{app.name} COMMAND --help` for a command's arguments.",
        }
    return {"tool": app.name, "usage": usage_line(app, cmd), **command_schema(cmd)}


def help_text(app: "App", cmd: "Command | None") -> "str":
    """Human help: the help document (help_document) as text."""
    doc = help_document(app, cmd)
    if cmd is None:
        width = max(len(c["name"]) for c in doc["commands"])
        lines = [f"usage: {doc['usage']}", "", doc["description"], "", "commands:"]
        lines += [f"  {c['name'].ljust(width)}  {c['summary']}" for c in doc["commands"]]
        lines += ["", doc["more"]]
        return "\n".join(lines) + "\n"
    lines = ["usage: " + doc["usage"], "", doc["summary"], ""]
    for a in doc["arguments"]:
        label = ", ".join(a["flags"])
        extra = f" (choices: {', '.join(a['choices'])})" if a.get("choices") else ""
        default = a.get("default")
        extra += f" (default: {default})" if default not in (None, False) else ""
        lines.append(f"  {label.ljust(22)} {a['help']}{extra}")
    for fmt in doc.get("file_formats", ()):
        lines += ["", f"{fmt['name']} ({fmt['argument']}): {fmt['summary']}"]
        for f in fmt["fields"]:
            values = f.get("values", {})
            label = f["name"] + (": " + "|".join(values) if values else "")
            notes = (
                " (required)"
                if f["required"]
                else f" (default: {f['default']})"
                if "default" in f
                else ""
            )
            wide = len(label) > 22  # the meaning goes under a long label
            lines.append(
                f"  {label}\n  {'':22} {f['help']}{notes}"
                if wide
                else f"  {label.ljust(22)} {f['help']}{notes}"
            )
            lines += [f"      {value.ljust(18)} {meaning}" for value, meaning in values.items()]
    if doc["examples"]:
        lines += ["", "examples:"] + [f"  {e}" for e in doc["examples"]]
    return "\n".join(lines) + "\n"


def asks_json(argv: "Sequence[str]") -> "bool":
    """Whether argv asks for JSON (`-f json`, `--format json`, `--format=json`): read beside
    --help, whatever -f means to the command (for `logs` it is --follow)."""
    return len(without_format(argv)) < len(argv)


def without_format(argv: "Sequence[str]") -> "list[str]":
    """argv without the words that ask for JSON."""
    out: list[str] = []
    skip = False
    for i, tok in enumerate(argv):
        if skip:
            skip = False
        elif tok in ("-f", "--format") and argv[i + 1 : i + 2] == ["json"]:
            skip = True
        elif tok not in ("--format=json", "-fjson"):
            out.append(tok)
    return out
