"""Commands as tools: names, schemas, annotations, the argv of a call, a call run as the CLI
runs it, and paths confined to a root."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from agentcli_testkit.sample_app import APP

from agentcli import confine
from agentcli.confine import OutsideRootError
from agentcli.errors import UsageError
from agentcli.report import report_schema
from agentcli.tools import ToolSet

TOOLS = ToolSet(
    APP, "sample_", not_tools=frozenset({"boom"}), not_args=frozenset({("greet", "tail")})
)


def test_names_and_which_commands_are_tools() -> None:
    assert [TOOLS.name(c) for c in TOOLS.commands()] == [
        "sample_greet",
        "sample_open",
        "sample_check",
        "sample_show",
        "sample_job_wait",
        "sample_job_list",
        "sample_job_interrupt",
        "sample_run",
    ]
    # a person's table view is no tool argument
    assert list(TOOLS.input_schema(APP.command("job list"))["properties"]) == ["name"]
    assert TOOLS.command("sample_job_wait") is APP.command("job wait")
    assert TOOLS.command("sample_capabilities") is None


def test_the_input_schema_of_a_command() -> None:
    schema = TOOLS.input_schema(APP.command("greet"))
    assert schema["required"] == ["name"]
    assert schema["additionalProperties"] is False
    assert schema["properties"]["tone"] == {
        "type": "string",
        "enum": ["warm", "cold"],
        "description": "tone",
        "default": "warm",
    }
    assert schema["properties"]["env"] == {
        "type": "array",
        "items": {"type": "string"},
        "description": "KEY=VALUE (KEY=VALUE)",
    }
    assert "tail" not in schema["properties"]


def test_a_report_command_answers_its_report() -> None:
    check = APP.command("check")
    assert sorted(TOOLS.input_schema(check)["properties"]) == ["data"]  # no format, no output
    assert TOOLS.output_schema(check) == report_schema()
    envelope, code = TOOLS.call(check, {"data": "x.csv"})
    assert code == 1
    assert envelope["data"]["findings"][0]["rule_id"] == "R-1"
    assert envelope["data"]["summary"] == {"error": 1, "warning": 0, "info": 0}


def test_annotations_come_from_the_declaration() -> None:
    assert TOOLS.annotations(APP.command("greet")) == {
        "read_only_hint": False,
        "destructive_hint": False,
        "idempotent_hint": True,
        "open_world_hint": False,
    }


def test_the_argv_of_a_call() -> None:
    greet = APP.command("greet")
    argv = TOOLS.to_argv(greet, {"name": "-x", "times": 2, "loud": True, "env": ["A=1", "B=2"]})
    assert argv == ["greet", "--times=2", "--env=A=1", "--env=B=2", "--loud", "--", "-x"]
    run = APP.command("run")
    assert TOOLS.to_argv(run, {"name": "w", "cmd": ["ls", "-l"]}) == ["run", "w", "--", "ls", "-l"]
    with pytest.raises(UsageError, match="unknown argument"):
        TOOLS.to_argv(greet, {"name": "a", "tail": 3})
    with pytest.raises(UsageError, match="loud must be of type boolean"):
        TOOLS.to_argv(greet, {"name": "a", "loud": "yes"})


def test_a_call_answers_as_the_cli_would() -> None:
    envelope, code = TOOLS.call(APP.command("greet"), {"name": "bob"})
    assert (code, envelope["data"]) == (0, {"greeting": "hello bob", "times": 1})
    envelope, code = TOOLS.call(APP.command("job wait"), {})
    assert (code, envelope["error_code"]) == (1, "CONDITION_NOT_MET")
    envelope, code = TOOLS.call(APP.command("greet"), {"name": "bob", "times": -1})
    assert (code, envelope["error_code"]) == (2, "USAGE")


def test_paths_are_taken_under_the_root_and_refused_outside(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "link").symlink_to(tmp_path)
    check = APP.command("check")
    real = os.path.realpath(root)
    assert TOOLS.rooted(check, {"data": "sub/a.csv"}, real) == {"data": f"{real}/sub/a.csv"}
    for outside in ("../x.csv", "/etc/passwd", "sub/link/x.csv"):
        with pytest.raises(OutsideRootError, match="outside"):
            TOOLS.rooted(check, {"data": outside}, real)
    envelope, code = TOOLS.call_within(real, check, {"data": "/etc/passwd"})
    assert (code, envelope["error_code"]) == (2, "PATH_OUTSIDE_ROOT")


def test_a_confined_call_refuses_what_its_files_lead_to(tmp_path: Path) -> None:
    confine.check("/etc/passwd")  # not confined: allowed
    with confine.confined(tmp_path) as real:
        assert real == os.path.realpath(tmp_path)
        confine.check(tmp_path / "a" / "b")
        with pytest.raises(OutsideRootError, match="outside"):
            confine.check("/etc/passwd")
    confine.check("/etc/passwd")
