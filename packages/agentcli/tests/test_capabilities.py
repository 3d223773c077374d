"""capabilities is derived from the same declarations as the parser; walk the parser to prove it."""

from __future__ import annotations

from typing import Any

import pytest
from sample_app import APP

from agentcli.commands import App, capabilities
from agentcli.errors import UsageError
from agentcli.main import with_builtins
from agentcli.parser import parse

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
            for flag in a["flags"]:
                argv = [*base, flag]
                if a["type"] != "boolean":
                    argv.append(
                        a["choices"][0] if a.get("choices") else SAMPLE_VALUES.get(a["type"], "x")
                    )
                _, got = parse(app, argv)
                expected: Any = True if a["type"] == "boolean" else got[a["name"]]
                assert got[a["name"]] == expected
                assert got[a["name"]] not in (None, False, [])
            if a.get("choices"):
                with pytest.raises(UsageError):
                    parse(app, [*base, a["flags"][-1], "not-a-choice"])
        with pytest.raises(UsageError):
            parse(app, [*base, "--not-described"])
    described = {c["name"] for c in caps["commands"]}
    assert described == {c.name for c in app.commands}


def test_sample_capabilities_match_parser() -> None:
    assert_capabilities_match_parser(APP)


def test_capabilities_document() -> None:
    caps = capabilities(with_builtins(APP))
    assert caps["tool"] == "sample"
    assert caps["exit_codes"] == {
        "0": "success",
        "1": "the tool worked and found problems, or a condition was not met",
        "2": "usage: fix the arguments, the config file or the input schema, not the data",
        "3": "unexpected runtime error",
        "130": "interrupted",
    }
    greet = next(c for c in caps["commands"] if c["name"] == "greet")
    tone = next(a for a in greet["arguments"] if a["name"] == "tone")
    assert tone == {
        "name": "tone",
        "kind": "option",
        "flags": ["--tone"],
        "type": "string",
        "required": False,
        "multiple": False,
        "help": "tone",
        "default": "warm",
        "choices": ["warm", "cold"],
    }
    assert greet["errors"] == ["USAGE", "INTERNAL", "INTERRUPTED"]
    check = next(c for c in caps["commands"] if c["name"] == "check")
    assert [a["name"] for a in check["arguments"]] == ["format", "output"]
    assert {e["code"] for e in caps["errors"]} == {
        "USAGE",
        "INTERNAL",
        "INTERRUPTED",
        "INVALID_INPUT",
        "CONDITION_NOT_MET",
    }
    assert caps["envelope_schema"]["required"] == ["schema_version", "success"]
