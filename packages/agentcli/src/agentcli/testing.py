"""Test helpers for tools built on agentcli (importable by every package's tests)."""

from __future__ import annotations

import json
from typing import Any

from agentcli.commands import App, capabilities
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
