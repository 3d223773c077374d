"""Test helpers for tools built on agentcli (importable by every package's tests)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agentcli.commands import App, Command, capabilities
from agentcli.errors import UsageError
from agentcli.main import with_builtins
from agentcli.parser import converter, parse

SAMPLE_VALUES = {
    "integer": "7",
    "number": "1.5",
    "duration": "2s",
    "key_value": "K=V",
    "string": "x",
    "path": "p",
}


def assert_capabilities_match_parser(app: App) -> None:
    """Every described command/option is accepted with its type; nothing else is."""
    app = with_builtins(app)
    caps = capabilities(app)
    for cmd in caps["commands"]:
        words = cmd["name"].split()
        args = cmd["arguments"]
        required_positional = [
            SAMPLE_VALUES.get(a["type"], "x") if not a.get("choices") else a["choices"][0]
            for a in args
            if a["kind"] == "positional" and a["required"]
        ]
        base = words + required_positional
        for a in args:
            if a["kind"] == "option" and a["required"]:
                base += [a["flags"][-1], a.get("choices", [SAMPLE_VALUES.get(a["type"], "x")])[0]]
        parsed, values = parse(app, base)
        assert parsed is not None and parsed.name == cmd["name"]
        for a in args:
            assert a["name"] in values
            if a["kind"] != "option":
                continue
            sample = a["choices"][0] if a.get("choices") else SAMPLE_VALUES.get(a["type"], "x")
            expected: Any = True
            if a["type"] != "boolean":
                convert = converter(a["type"])
                expected = convert(sample) if convert else sample
                expected = [expected] if a["multiple"] else expected
            for flag in a["flags"]:
                argv = [*base, flag] + ([] if a["type"] == "boolean" else [sample])
                _, got = parse(app, argv)
                assert got[a["name"]] == expected, (cmd["name"], flag, got[a["name"]])
            if a.get("choices"):
                _refused(app, [*base, a["flags"][-1], "not-a-choice"])
        _refused(app, [*base, "--not-described"])
    described = {c["name"] for c in caps["commands"]}
    assert described == {c.name for c in app.commands}


def _refused(app: App, argv: list[str]) -> None:
    try:
        parse(app, argv)
    except UsageError:
        return
    raise AssertionError(f"the parser accepted {argv!r}, which capabilities does not describe")


def command_lines(text: str, tool: str) -> list[str]:
    """Every command line of `tool` written in backticks in a guide (SKILL.md, a prompt)."""
    import re

    return [s for s in re.findall(r"`([^`\n]+)`", text) if s == tool or s.startswith(tool + " ")]


def check_usage(app: App, line: str) -> None:
    """A usage synopsis (`tool cmd ARG [--opt VALUE] ...`) names a declared command and only
    its declared options."""
    import re

    from agentcli.commands import command_args

    app = with_builtins(app)
    words = line.split()[1:]
    cmd = max(
        (c for c in app.commands if words[: len(c.words)] == c.words),
        key=lambda c: len(c.words),
        default=None,
    )
    assert cmd is not None, f"no command in {line!r}"
    declared = {flag for arg in command_args(cmd) for flag in arg.flags}
    used = set(re.findall(r"(?<![\w-])--?[a-z][a-z0-9-]*", line))
    assert used <= declared, (line, used - declared)


def parse_line(app: App, line: str) -> tuple[Command, dict[str, Any]]:
    """Parse a command line as the tool's console script would; a tool with one command
    takes it unnamed (`doc2md FILE` is `doc2md convert FILE`). UsageError when it does not
    parse: a guide named a command or option that is not declared."""
    import shlex

    words = shlex.split(line)[1:]
    app = with_builtins(app)
    names = [c.name for c in app.commands]
    real = [c for c in app.commands if c.name != "capabilities"]
    if len(real) == 1 and not any((" ".join(words) + " ").startswith(n + " ") for n in names):
        words = [real[0].name, *words]
    cmd, values = parse(app, words)
    assert cmd is not None, line
    return cmd, values


def skill_problems(folder: Path) -> list[str]:
    """What breaks the Agent Skills specification in a skill folder (a YAML parser reads its
    front matter: this needs ruamel.yaml, which the tools' packages have)."""
    from ruamel.yaml import YAML

    from agentcli.skills import SKILL_FILE, check_skill, front_matter

    head, body = front_matter((folder / SKILL_FILE).read_text("utf-8"))
    meta = YAML(typ="safe", pure=True).load(head)
    if not isinstance(meta, dict):
        return ["the front matter is not a mapping"]
    return check_skill(folder.name, meta, body)


def skill_workflows(text: str) -> list[tuple[str, list[str]]]:
    """(goal, command lines) of each workflow in a SKILL.md's Workflows section: what an
    agent that read only SKILL.md would run."""
    import re

    section = text.split("\n## Workflows\n", 1)[1].split("\n## ", 1)[0]
    flows: list[tuple[str, list[str]]] = []
    for line in section.splitlines():
        goal = re.fullmatch(r"\*\*(.+)\*\*", line)
        step = re.fullmatch(r"\d+\. `(.+)`", line)
        if goal:
            flows.append((goal[1], []))
        elif step:
            flows[-1][1].append(step[1])
    return flows


def assert_help_as_json(app: App) -> None:
    """`--help -f json` answers, for the tool and for each command, the same document as
    `capabilities COMMAND`, and the plain help says what that document says."""
    from agentcli.parser import help_document, help_text

    full = with_builtins(app)
    for cmd in (None, *full.commands):
        words = [] if cmd is None else cmd.words
        for asks in (["-f", "json"], ["--format=json"]):
            code, out = _output(app, [*words, "--help", *asks])
            assert (code, json.loads(out)["data"]) == (0, help_document(full, cmd)), words
        if cmd is not None:
            code, out = _output(app, ["capabilities", *words])
            assert (code, json.loads(out)["data"]) == (0, help_document(full, cmd)), words
        code, text = _output(app, [*words, "--help"])
        assert (code, text) == (0, help_text(full, cmd)), words
        for arg in [] if cmd is None else help_document(full, cmd)["arguments"]:
            assert ", ".join(arg["flags"]) in text and arg["help"] in text, (words, arg)


def _output(app: App, argv: list[str]) -> tuple[int, str]:
    """The exit code and stdout of `app` run in this process on argv."""
    import io
    import sys

    from agentcli.main import run

    saved, buffer = sys.stdout, io.BytesIO()
    wrapper = sys.stdout = io.TextIOWrapper(buffer, encoding="utf-8")
    try:
        code = run(app, argv)
    finally:
        sys.stdout = saved
        wrapper.flush()
        wrapper.detach()  # so that collecting the wrapper leaves the buffer open
    return code, buffer.getvalue().decode("utf-8")
