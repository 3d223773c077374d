"""A tool's Agent Skill (SKILL.md and references/), generated from its command declarations.

The skill is what an agent reads before its first command: the front matter's description
decides whether the skill applies; SKILL.md's body (task table, rules, exit codes,
workflows, the commands) is read when it does; `references/` (every option, every error
code) only when needed. Only `Guide`, the hand-written part, lives beside each tool's
declarations; everything else is derived here, so it cannot drift from what the parser
accepts. `check_skill` holds the Agent Skills specification's rules (agentskills.io).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from agentcli.commands import App, Arg, Command, FileFormat, command_args
from agentcli.errors import EXIT_CODE_MEANINGS, AgentError
from agentcli.main import with_builtins
from agentcli.parser import usage_line

SKILL_FILE = "SKILL.md"
COMMANDS_FILE = "references/commands.md"
ERRORS_FILE = "references/errors.md"
TASKS_FILE = "references/tasks.md"
# Usage lines for every command in SKILL.md up to this many commands; beyond, the names
# only (Procler has 60-odd: their usage is in references/commands.md).
USAGE_LINES_UP_TO = 10

# The specification's limits (https://agentskills.io/specification).
NAME_MAX = 64
DESCRIPTION_MAX = 1024
COMPATIBILITY_MAX = 500
BODY_MAX_LINES = 500
BODY_MAX_WORDS = 1500  # this project's own bound: about 5,000 tokens is the spec's
FIELDS = ("name", "description", "license", "compatibility", "metadata", "allowed-tools")
NAME_FORMAT = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


@dataclass(frozen=True)
class Task:
    """A row of the task table: what the agent wants, and the command lines that do it.

    Each command line is concrete (placeholders in capitals are plain values) so that a
    test can parse it with the tool's own parser."""

    want: str
    commands: tuple[str, ...]


@dataclass(frozen=True)
class Workflow:
    goal: str
    steps: tuple[str, ...]


@dataclass(frozen=True)
class Guide:
    """The hand-written part of a tool's skill: when to use it (the trigger an agent
    matches on), the tasks, workflows and rules of this tool."""

    description: str
    tasks: tuple[Task, ...]
    workflows: tuple[Workflow, ...] = ()
    rules: tuple[str, ...] = ()  # this tool's own, after the rules every tool shares
    more_tasks: tuple[Task, ...] = ()  # in references/tasks.md, read when needed
    compatibility: str = ""


def required_line(app: App, cmd: Command) -> str:
    """The command with only what it requires, values as placeholders: `tool cmd NAME`."""
    words = [app.name, cmd.name]
    for arg in command_args(cmd):
        if arg.required:
            if arg.positional:
                words.append(arg.metavar or arg.name.upper())
            else:
                words += [arg.flags[-1], arg.metavar or arg.type.upper()]
    return " ".join(words)


def shared_rules(app: App) -> list[str]:
    """The rules every tool shares, naming this tool's commands where they apply."""
    dry = [c for c in app.commands if any(a.name == "--dry-run" for a in c.args)]
    destructive = [c for c in app.commands if c.destructive]
    rules = [
        "**Exit 2 means fix the arguments, not the data**: the command line, the config or "
        "rules file, or an input that is damaged, encrypted, unsupported or unsafe. Read "
        "`error_code` and `suggestion`; retrying unchanged gives the same answer.",
        "**Never overwrite an input**: write outputs to a new file or folder. An output that "
        "is an input is refused (exit 2) before anything is written.",
    ]
    if dry:
        named = ", ".join(f"`{required_line(app, c)} --dry-run`" for c in dry)
        always = [c.name for c in dry if c.dry_run_first]
        rules.append(
            f"**Dry run first**: before a command that writes, run it with `--dry-run` ({named}), "
            "show the user what it would do, then run it without."
            + (f" Never skip it for `{'`, `'.join(always)}`." if always else "")
        )
    if destructive:
        named = ", ".join(f"`{c.name}`" for c in destructive)
        rules.append(f"**Ask the user first** before what stops or removes things: {named}.")
    rules.append(
        "Answers are JSON on stdout (logs on stderr): read them, do not scrape text. "
        "Idempotent commands (see `capabilities`) are safe to repeat."
    )
    return rules


def _code(text: str) -> str:
    return f"`{text}`"


def _task_rows(tasks: tuple[Task, ...]) -> list[str]:
    rows = ["| what you want | command |", "|---|---|"]
    for task in tasks:
        rows.append(f"| {task.want} | {' / '.join(_code(c) for c in task.commands)} |")
    return rows


def _front_matter(app: App, guide: Guide) -> list[str]:
    # JSON strings are YAML double-quoted scalars: no quoting rule to get wrong.
    lines = ["---", f"name: {app.name}", f"description: {json.dumps(guide.description)}"]
    if guide.compatibility:
        lines.append(f"compatibility: {json.dumps(guide.compatibility)}")
    lines += [
        "metadata:",
        f"  version: {json.dumps(app.version)}",
        f"  generated-from: {json.dumps(f'{app.name} capabilities')}",
        "---",
    ]
    return lines


def _command_index(app: App) -> list[str]:
    commands = [c for c in app.commands if c.name != "capabilities"]
    if len(commands) <= USAGE_LINES_UP_TO:
        return [f"- `{usage_line(app, c)}`: {c.summary}" for c in commands]
    groups: dict[str, list[str]] = {}
    for cmd in commands:
        head = cmd.words[0] if len(cmd.words) > 1 else ""
        groups.setdefault(head, []).append(cmd.name)
    lines = [
        f"`{app.name} COMMAND --help` or `references/commands.md` gives each one's options.",
        "",
    ]
    for head, names in groups.items():
        if head:
            words = ", ".join(n.split(" ", 1)[1] for n in names)
            lines.append(f"- `{head}` {words}")
        else:
            lines.append("- " + ", ".join(_code(n) for n in names))
    return lines


def _file_line(app: App, cmd: Command, fmt: FileFormat) -> str:
    """One line per file a command reads: its columns, the values each takes."""
    fields = []
    for f in fmt.fields:
        marks = ["required"] if f.required else []
        if f.values:
            marks.append(" | ".join(v for v, _meaning in f.values))
        if f.default:
            marks.append(f"default {f.default}")
        fields.append(f"`{f.name}`" + (f" ({'; '.join(marks)})" if marks else ""))
    return (
        f"- The {fmt.name} (`{fmt.argument}` of `{cmd.name}`): {fmt.summary}. "
        f"Columns: {', '.join(fields)}. Their meanings: `{COMMANDS_FILE}`."
    )


def render_skill_md(app: App, guide: Guide) -> str:
    app = with_builtins(app)
    lines = _front_matter(app, guide)
    lines += ["", f"# {app.name}", "", app.description, ""]
    lines += ["## What you want -> command", "", *_task_rows(guide.tasks), ""]
    if guide.more_tasks:
        lines += [f"More tasks, with their commands: `{TASKS_FILE}`.", ""]
    lines += ["## Rules", ""]
    lines += [f"- {rule}" for rule in (*shared_rules(app), *guide.rules)]
    formats = [(cmd, fmt) for cmd in app.commands for fmt in cmd.files]
    if formats:
        lines += ["", "## Files", ""]
        lines += [_file_line(app, cmd, fmt) for cmd, fmt in formats]
    lines += ["", "## Exit codes", "", *exit_code_rows()]
    if guide.workflows:
        lines += ["", "## Workflows", ""]
        for flow in guide.workflows:
            lines.append(f"**{flow.goal}**")
            lines += [f"{i}. `{step}`" for i, step in enumerate(flow.steps, 1)]
            lines.append("")
        lines.pop()
    lines += ["", "## Commands", "", *_command_index(app), ""]
    lines += [
        "## More",
        "",
        f"- `{COMMANDS_FILE}`: every command with each option's type, default and choices, "
        "its examples and error codes.",
        f"- `{ERRORS_FILE}`: every error code with its exit code and suggestion.",
        f"- `{app.name} capabilities`: the same as JSON.",
    ]
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _arg_row(arg: Arg) -> str:
    label = (
        ", ".join(_code(f) for f in arg.flags) if not arg.positional else _code(arg.name.upper())
    )
    marks = [m for m, on in (("required", arg.required), ("repeatable", arg.multiple)) if on]
    if marks:
        label += f" ({', '.join(marks)})"
    kind = f"one of {', '.join(arg.choices)}" if arg.choices else arg.type
    default = _code(str(arg.default)) if arg.default not in (None, False) else ""
    return f"| {label} | {kind} | {default} | {_cell(arg.help)} |"


def arg_rows(args: tuple[Arg, ...]) -> list[str]:
    """The table of arguments: flags, type (or choices), default, meaning."""
    header = ["| argument | type | default | meaning |", "|---|---|---|---|"]
    return header + [_arg_row(a) for a in args]


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def command_section(app: App, cmd: Command, *, answers: bool = False) -> list[str]:
    """One command's section: usage, traits, arguments, files it reads, examples, errors;
    with `answers`, also the fields of its answer's data (as declared)."""
    output = (
        "a findings report (`-f json|markdown|html|csv`)"
        if cmd.mode == "report"
        else ("NDJSON lines" if cmd.mode == "stream" else "a JSON envelope")
    )
    lines = [
        f"## {app.name} {cmd.name}",
        "",
        cmd.summary,
        "",
        f"`{usage_line(app, cmd)}`",
        "",
        f"Read-only: {_yes(cmd.read_only)}. Idempotent: {_yes(cmd.idempotent)}. "
        f"Destructive: {_yes(cmd.destructive)}. Answers {output}.",
    ]
    args = command_args(cmd)
    if args:
        lines += ["", *arg_rows(args)]
    for fmt in cmd.files:
        lines += ["", f"The {fmt.name} (`{fmt.argument}`): {fmt.summary}.", ""]
        lines += ["| column | required | default | meaning |", "|---|---|---|---|"]
        for f in fmt.fields:
            meaning = f.help + "".join(f"; `{v}`: {m}" for v, m in f.values)
            default = _code(f.default) if f.default else ""
            lines.append(f"| `{f.name}` | {_yes(f.required)} | {default} | {_cell(meaning)} |")
    rule_ids = cmd.output.get("rule_ids")
    if isinstance(rule_ids, dict) and rule_ids:
        lines += ["", "| finding rule_id | meaning |", "|---|---|"]
        lines += [f"| `{rule}` | {_cell(str(meaning))} |" for rule, meaning in rule_ids.items()]
    if answers:
        lines += answer_lines(cmd)
    if cmd.examples:
        lines += ["", "Examples:", *(f"- `{e}`" for e in cmd.examples)]
    lines += ["", "Errors: " + ", ".join(_code(e.code) for e in cmd.all_errors()), ""]
    return lines


def _kind(schema: Mapping[str, Any]) -> str:
    """A JSON Schema's type in words: `list of string`, `one of a, b`."""
    if "enum" in schema:
        return "one of " + ", ".join(str(v) for v in schema["enum"])
    kind = schema.get("type", "")
    if kind == "array" and isinstance(schema.get("items"), Mapping):
        return f"list of {_kind(schema['items'])}".rstrip()
    return " or ".join(kind) if isinstance(kind, list) else str(kind)


def answer_lines(cmd: Command) -> list[str]:
    """The fields of a command's answer, from its declared output schema."""
    fields = cmd.output.get("properties")
    if isinstance(fields, Mapping) and fields:
        lines = ["", "| answer field | type | meaning |", "|---|---|---|"]
        for name, schema in fields.items():
            meaning = _cell(str(schema.get("description", "")))
            lines.append(f"| `{name}` | {_cell(_kind(schema))} | {meaning} |")
        return lines
    described = cmd.output.get("description") or cmd.output.get("$ref")
    return ["", f"Answer: {described}."] if described else []


def render_commands(app: App) -> str:
    app = with_builtins(app)
    lines = [
        f"# {app.name}: command reference",
        "",
        f"Generated from the command declarations, as `{app.name} capabilities` (JSON) and "
        f"`{app.name} COMMAND --help` give them.",
        "",
    ]
    if app.global_args:
        lines += ["Options before the command:", "", *arg_rows(app.global_args), ""]
    for cmd in app.commands:
        lines += command_section(app, cmd)
    return "\n".join(lines)


def errors_of(app: App) -> dict[str, tuple[type[AgentError], list[str]]]:
    """Every error code of the tool, with the commands declaring it."""
    found: dict[str, tuple[type[AgentError], list[str]]] = {}
    for cmd in with_builtins(app).commands:
        for err in cmd.all_errors():
            found.setdefault(err.code, (err, []))[1].append(cmd.name)
    return dict(sorted(found.items()))


def error_rows(app: App) -> list[str]:
    """The table of every error code: its exit code, suggestion and the commands that
    declare it."""
    lines = ["| error_code | exit | suggestion | commands |", "|---|---|---|---|"]
    for code, (err, commands) in errors_of(app).items():
        named = (
            "every command"
            if len(commands) == len(with_builtins(app).commands)
            else ", ".join(commands)
        )
        lines.append(
            f"| `{code}` | {int(err.exit_code)} | {_cell(err.default_suggestion)} | {named} |"
        )
    return lines


def exit_code_rows() -> list[str]:
    return [
        "| exit | meaning |",
        "|---|---|",
        *(f"| {code} | {meaning} |" for code, meaning in EXIT_CODE_MEANINGS.items()),
    ]


def render_errors(app: App) -> str:
    lines = [
        f"# {app.name}: error codes",
        "",
        "A failure answers `{schema_version, success: false, error, error_code, suggestion}`; "
        "the exit code says what to do next.",
        "",
        *exit_code_rows(),
        "",
        *error_rows(app),
    ]
    return "\n".join(lines) + "\n"


def render_tasks(app: App, guide: Guide) -> str:
    lines = [f"# {app.name}: more tasks", "", *_task_rows(guide.more_tasks)]
    return "\n".join(lines) + "\n"


def render(app: App, guide: Guide) -> dict[str, str]:
    """The skill's files (path inside the skill folder -> text)."""
    files = {
        SKILL_FILE: render_skill_md(app, guide),
        COMMANDS_FILE: render_commands(app),
        ERRORS_FILE: render_errors(app),
    }
    if guide.more_tasks:
        files[TASKS_FILE] = render_tasks(app, guide)
    return files


def front_matter(text: str) -> tuple[str, str]:
    """(the front matter's YAML, the body) of a SKILL.md; ValueError without front matter."""
    if not text.startswith("---\n"):
        raise ValueError("SKILL.md must start with a --- line")
    head, sep, body = text[4:].partition("\n---\n")
    if not sep:
        raise ValueError("SKILL.md's front matter has no closing --- line")
    return head, body


def check_skill(folder: str, meta: Mapping[str, object], body: str) -> list[str]:
    """What breaks the specification's rules (empty when none): `meta` is the parsed front
    matter, `folder` the skill folder's name."""
    problems = []
    name = meta.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= NAME_MAX:
        problems.append(f"name must be 1-{NAME_MAX} characters")
    elif not NAME_FORMAT.fullmatch(name):
        problems.append("name: lowercase a-z, 0-9 and single hyphens, not at either end")
    elif name != folder:
        problems.append(f"name {name!r} must equal the folder's name {folder!r}")
    description = meta.get("description")
    if not isinstance(description, str) or not 1 <= len(description) <= DESCRIPTION_MAX:
        problems.append(f"description must be 1-{DESCRIPTION_MAX} characters")
    compatibility = meta.get("compatibility")
    if compatibility is not None and (
        not isinstance(compatibility, str) or not 1 <= len(compatibility) <= COMPATIBILITY_MAX
    ):
        problems.append(f"compatibility must be 1-{COMPATIBILITY_MAX} characters")
    metadata = meta.get("metadata")
    if metadata is not None and not (
        isinstance(metadata, Mapping)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in metadata.items())
    ):
        problems.append("metadata must map strings to strings")
    unknown = sorted(set(meta) - set(FIELDS))
    if unknown:
        problems.append(f"unknown front matter fields: {', '.join(unknown)}")
    if body.count("\n") >= BODY_MAX_LINES:
        problems.append(f"the body must stay under {BODY_MAX_LINES} lines")
    if len(body.split()) > BODY_MAX_WORDS:
        problems.append(f"the body must stay within {BODY_MAX_WORDS} words")
    return problems
