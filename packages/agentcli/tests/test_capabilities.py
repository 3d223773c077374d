"""capabilities is derived from the same declarations as the parser; walk the parser to prove it."""

from __future__ import annotations

import pytest
from agentcli_testkit.sample_app import APP

from agentcli.commands import capabilities
from agentcli.main import capabilities_answer, run, with_builtins
from agentcli.testing import assert_capabilities_match_parser, assert_help_as_json


def test_sample_capabilities_match_parser() -> None:
    assert_capabilities_match_parser(APP)


def test_capabilities_document() -> None:
    caps = capabilities(with_builtins(APP))
    assert caps["tool"] == "sample"
    assert caps["exit_codes"] == {
        "0": "success",
        "1": "the tool worked and found problems, or a condition was not met",
        "2": "usage or input: fix the arguments, the config file or the input file (its schema, or a damaged, unsupported or unsafe file); retrying as is will not help",
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
    assert [a["name"] for a in check["arguments"]] == ["data", "format", "output"]
    assert check["file_formats"] == [
        {
            "name": "data file",
            "argument": "DATA",
            "summary": "a CSV file, one row per thing",
            "fields": [
                {"name": "name", "help": "what the thing is called", "required": True},
                {
                    "name": "size",
                    "help": "how big it is",
                    "required": False,
                    "default": "small",
                    "values": {"small": "fits in a hand", "large": "does not"},
                },
            ],
        }
    ]
    assert "file_formats" not in greet
    assert {e["code"] for e in caps["errors"]} == {
        "USAGE",
        "INTERNAL",
        "INTERRUPTED",
        "INVALID_INPUT",
        "CONDITION_NOT_MET",
    }
    assert caps["envelope_schema"]["required"] == ["schema_version", "success"]


def test_help_as_json_is_the_plain_help_and_capabilities_of_one_command() -> None:
    assert_help_as_json(APP)


def test_capabilities_answer_is_what_the_command_prints(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(APP, ["capabilities"]) == 0
    printed = capsys.readouterr().out
    assert capabilities_answer(APP) == printed
    assert printed.count("\n") == 1 and printed.startswith(
        '{"schema_version":"1.0","success":true,'
    )
