"""The table view (`--format table`): derived from a command's Table declarations, JSON
stays the default, errors stay envelopes, colour only at a terminal without NO_COLOR."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest
from agentcli_testkit import SAMPLE, SAMPLE_ENV
from agentcli_testkit.sample_app import APP, JOBS_TABLE
from agentcli_testkit.terminal import Terminal

from agentcli.commands import Column, Table, TableView, call_args, capabilities
from agentcli.main import run
from agentcli.table import clock_time, duration, render, size

PLAIN = (
    "NAME           STATE    TOOK   MEMORY   CPU  TAGS\n"
    "build          ok      1h02m  3.0 MiB  1.2%  -\n"
    "deploy\\x1b[2J  failed     5s        -  0.0%  a, b\n"
    "\n"
    "warning: the jobs file is stale\n"
)


def test_a_table_aligns_its_columns_and_right_aligns_quantities(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(APP, ["job", "list", "-f", "table"]) == 0
    assert capsys.readouterr().out == PLAIN


def test_json_stays_the_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(APP, ["job", "list"]) == 0
    assert json.loads(capsys.readouterr().out)["data"]["jobs"][0]["name"] == "build"
    assert run(APP, ["job", "list", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["success"] is True


def test_an_error_stays_an_envelope(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(APP, ["job", "list", "missing", "-f", "table"]) == 2
    assert json.loads(capsys.readouterr().out)["error_code"] == "INVALID_INPUT"
    assert run(APP, ["job", "list", "-f", "yaml"]) == 2
    assert json.loads(capsys.readouterr().out)["error_code"] == "USAGE"


def test_a_command_without_a_table_view_takes_no_format(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(APP, ["greet", "bob", "-f", "table"]) == 2
    assert json.loads(capsys.readouterr().out)["error_code"] == "USAGE"


def at_a_terminal(*argv: str, env: dict[str, str]) -> str:
    """stdout of the sample tool run with a pseudo-terminal as its stdout."""
    base = {k: v for k, v in SAMPLE_ENV.items() if k != "NO_COLOR"}
    code, shown = Terminal([*SAMPLE, *argv], Path.cwd(), base | env).output()
    assert code in (0, 2), shown
    return shown


def test_colour_only_at_a_terminal_and_never_with_no_color() -> None:
    coloured = at_a_terminal("job", "list", "-f", "table", env={})
    assert coloured.splitlines()[:3] == [
        "\x1b[1mNAME           STATE    TOOK   MEMORY   CPU  TAGS\x1b[0m",
        "build          \x1b[32mok\x1b[0m      1h02m  3.0 MiB  1.2%  -",
        "deploy\\x1b[2J  \x1b[1;31mfailed\x1b[0m     5s        -  0.0%  a, b",
    ]
    assert at_a_terminal("job", "list", "-f", "table", env={"NO_COLOR": "1"}) == PLAIN


def test_the_tools_format_variable_asks_for_tables_at_a_terminal_only() -> None:
    assert at_a_terminal("job", "list", env={"SAMPLE_FORMAT": "table", "NO_COLOR": "1"}) == PLAIN
    explicit = at_a_terminal("job", "list", "-f", "json", env={"SAMPLE_FORMAT": "table"})
    assert json.loads(explicit)["success"] is True
    piped = subprocess.run(
        [*SAMPLE, "job", "list"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**SAMPLE_ENV, "SAMPLE_FORMAT": "table"},
    )
    assert json.loads(piped.stdout)["data"]["jobs"][1]["state"] == "failed"
    wrong = json.loads(at_a_terminal("job", "list", env={"SAMPLE_FORMAT": "yaml"}))
    assert (wrong["error_code"], wrong["suggestion"]) == (
        "USAGE",
        "set SAMPLE_FORMAT to json or table, or unset it",
    )
    # a command without a table view ignores it
    greeting = json.loads(at_a_terminal("greet", "bob", env={"SAMPLE_FORMAT": "yaml"}))
    assert greeting["data"]["greeting"] == "hello bob"


def test_capabilities_say_which_commands_have_a_table_view() -> None:
    described = {c["name"]: c for c in capabilities(APP)["commands"]}
    assert described["job list"]["formats"] == ["json", "table"]
    assert described["greet"]["formats"] == ["json"]
    assert described["check"]["formats"] == ["json", "markdown", "html", "csv"]
    option = next(a for a in described["job list"]["arguments"] if a["name"] == "format")
    assert (option["choices"], option["local"]) == (["json", "table"], True)


def test_a_programs_call_never_takes_the_table_format() -> None:
    jobs = APP.command("job list")
    assert [a.dest for a in call_args(jobs)] == ["name"]


def test_each_item_of_a_list_gets_the_tables_under_its_name() -> None:
    view = TableView(
        Table((Column("at", kind="time"), Column("to")), "moves", title="moves"),
        each="instances",
    )
    data = {
        "instances": [
            {"name": "w-0", "moves": [{"at": 0, "to": "running"}]},
            {"name": "w-1", "moves": []},
        ]
    }
    assert render(view, data, colour=False, now=0) == (
        f"w-0 moves\nAT        TO\n{time.strftime('%H:%M:%S', time.localtime(0))}  running\n"
        "\nw-1 moves\nnone\n"
    )


def test_rows_come_from_the_first_key_set_or_the_answer_itself() -> None:
    view = TableView(Table((Column("name"), Column("cmd", "command|args", kind="words")), "rows"))
    one = {"name": "api", "command": None, "args": ["python", "-m", "x"]}
    assert render(view, one, colour=False) == "NAME  CMD\napi   python -m x\n"
    assert render(view, {"rows": [one, {**one, "command": "sh run"}]}, colour=False) == (
        "NAME  CMD\napi   python -m x\napi   sh run\n"
    )


def test_a_long_text_ends_with_an_ellipsis() -> None:
    view = TableView(Table((Column("reason", width=8),)))
    assert render(view, {"reason": "health check failed"}, colour=False) == ("REASON\nhealth …\n")


def test_values_as_a_person_reads_them() -> None:
    assert [duration(s) for s in (0, 0.589, 9.99, 59.9, 61, 3599, 3600, 86399, 90061)] == [
        "0s",
        "0.5s",
        "9.9s",
        "59s",
        "1m01s",
        "59m59s",
        "1h00m",
        "23h59m",
        "1d01h",
    ]
    assert [size(n) for n in (512, 2048, 3 * 2**20 + 2**19, 5 * 2**30)] == [
        "512 B",
        "2.0 KiB",
        "3.5 MiB",
        "5.0 GiB",
    ]
    noon = time.mktime((2026, 12, 6, 12, 0, 0, 0, 0, -1))
    assert clock_time(noon + 65, noon) == "12:01:05"
    assert clock_time(noon - 86400, noon) == "2026-12-05 12:00:00"
    iso = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(noon + 1))
    assert clock_time(iso, noon) == "12:00:01"
    assert clock_time("soon", noon) == "soon"


def test_the_sample_view_is_the_declared_one() -> None:
    assert APP.command("job list").table is JOBS_TABLE
