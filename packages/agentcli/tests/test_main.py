from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from agentcli_testkit import SAMPLE, SAMPLE_ENV
from agentcli_testkit.sample_app import APP

from agentcli.main import run


def call(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, dict[str, object], str]:
    code = run(APP, argv)
    out, err = capsys.readouterr()
    return code, json.loads(out), err


def test_success_envelope(capsys: pytest.CaptureFixture[str]) -> None:
    code, env, _ = call(capsys, ["greet", "bob", "--times", "2"])
    assert code == 0
    assert env == {
        "schema_version": "1.0",
        "success": True,
        "data": {"greeting": "hello bob", "times": 2},
    }


def test_usage_error_envelope(capsys: pytest.CaptureFixture[str]) -> None:
    code, env, _ = call(capsys, ["greet", "bob", "--tial", "1"])
    assert code == 2
    assert env["error_code"] == "USAGE"
    assert env["success"] is False


def test_typed_error_maps_to_its_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    code, env, _ = call(capsys, ["open", "/nope"])
    assert code == 2
    assert env == {
        "schema_version": "1.0",
        "success": False,
        "error": "no such file: /nope",
        "error_code": "INVALID_INPUT",
        "suggestion": "check the path",
    }


def test_condition_not_met_keeps_data(capsys: pytest.CaptureFixture[str]) -> None:
    code, env, _ = call(capsys, ["job", "wait"])
    assert code == 1
    assert env["data"] == {"status": "stopped"}
    assert env["error_code"] == "CONDITION_NOT_MET"


def test_internal_error_is_one_line_without_traceback_on_stdout(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, env, err = call(capsys, ["boom"])
    assert code == 3
    assert env["error_code"] == "INTERNAL"
    assert env["error"] == "RuntimeError: kaboom"
    assert "Traceback" not in err


def test_debug_puts_the_traceback_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    code, env, err = call(capsys, ["--debug", "boom"])
    assert code == 3
    assert "Traceback (most recent call last)" in err
    assert env["error"] == "RuntimeError: kaboom"


def test_keyboard_interrupt_is_130(capsys: pytest.CaptureFixture[str]) -> None:
    code, env, _ = call(capsys, ["job", "interrupt"])
    assert code == 130
    assert env["error_code"] == "INTERRUPTED"


def test_report_command_renders_and_chooses_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    code = run(APP, ["check", "-f", "csv"])
    out = capsys.readouterr().out
    assert code == 1
    assert out == (
        "severity,rule_id,location,field,message,expected,actual,suggestion\n"
        "error,R-1,row 2,total,total <mismatch>,8800,8900,fix it\n"
    )


def test_help_is_human_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(APP, ["greet", "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: sample greet NAME [--times INTEGER]")


def test_help_describes_the_files_a_command_reads(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(APP, ["check", "--help"]) == 0
    out = capsys.readouterr().out
    assert out.split("\n\n")[3].rstrip("\n") == (
        "data file (DATA): a CSV file, one row per thing\n"
        "  name                   what the thing is called (required)\n"
        "  size: small|large      how big it is (default: small)\n"
        "      small              fits in a hand\n"
        "      large              does not"
    )


def test_real_process_stdout_holds_only_the_envelope() -> None:
    proc = subprocess.run(
        [*SAMPLE, "boom"], capture_output=True, text=True, timeout=60, env=SAMPLE_ENV
    )
    assert proc.returncode == 3
    assert json.loads(proc.stdout)["error_code"] == "INTERNAL"
    assert proc.stdout.count("\n") == 1
    assert "Traceback" not in proc.stdout
    assert proc.stderr == "sample: internal error: RuntimeError: kaboom\nsecond line\n"


def test_real_process_usage_error() -> None:
    proc = subprocess.run(
        [*SAMPLE, "--no-such-flag"],
        capture_output=True,
        text=True,
        timeout=60,
        env=SAMPLE_ENV,
    )
    assert proc.returncode == 2
    assert json.loads(proc.stdout)["error_code"] == "USAGE"
    assert proc.stderr == ""


@pytest.mark.parametrize("flags", [["--stdout"], ["-o", "-"], ["--output=-"]])
def test_a_document_goes_to_stdout_and_its_report_to_stderr(
    capsys: pytest.CaptureFixture[str], flags: list[str]
) -> None:
    code = run(APP, ["show", "doc", *flags])
    out, err = capsys.readouterr()
    assert (code, out) == (1, "# doc\n")
    [line] = err.splitlines()
    assert json.loads(line)["findings"][0]["rule_id"] == "S-1"


def test_a_document_report_goes_to_report_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code = run(
        APP, ["show", "doc", "--stdout", "--report", str(tmp_path / "r.md"), "-f", "markdown"]
    )
    out, err = capsys.readouterr()
    assert (code, out, err) == (1, "# doc\n", "")
    assert (tmp_path / "r.md").read_text("utf-8").startswith("# Sample show\n")
    code = run(APP, ["show", "doc", "--report", str(tmp_path / "r.json")])  # without --stdout
    out, _ = capsys.readouterr()
    assert (code, out) == (1, "")
    assert json.loads((tmp_path / "r.json").read_text("utf-8"))["meta"] == {"name": "doc"}


def test_errors_of_a_document_command_keep_off_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["show", "many", "--stdout"], ["show", "doc", "-o", "-", "--bogus"]):
        code = run(APP, argv)
        out, err = capsys.readouterr()
        assert (code, out) == (2, "")
        assert json.loads(err)["error_code"] == "USAGE"
    code = run(APP, ["show", "doc", "--stdout", "-o", "r.json"])
    out, err = capsys.readouterr()
    assert (code, out, json.loads(err)["error"]) == (
        2, "", "-o r.json with --stdout: stdout carries the document"
    )  # fmt: skip


SWALLOWED = """
import os, signal
from agentcli.main import check_interrupt, interrupt_on_sigterm

interrupt_on_sigterm()


class Dying:
    def __del__(self):
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(10_000):  # the handler runs here: Python ignores what it raises
            pass


Dying()
print("went on")
try:
    check_interrupt()
except KeyboardInterrupt:
    print("interrupted")
"""


def test_an_interrupt_a_finalizer_swallowed_is_raised_again_at_the_next_check() -> None:
    """SIGTERM handled while a `__del__` runs raises its KeyboardInterrupt there, where
    Python prints and ignores it; check_interrupt (between files and pages) raises it."""
    done = subprocess.run(
        [sys.executable, "-c", SWALLOWED], capture_output=True, text=True, timeout=60, check=False
    )
    assert (done.returncode, done.stdout) == (0, "went on\ninterrupted\n"), done.stderr
    assert "Exception ignored in" in done.stderr and "KeyboardInterrupt" in done.stderr
