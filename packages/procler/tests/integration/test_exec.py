"""`procler exec`: one-off commands in the project's environment, through a real supervisor
(real output, timeouts, what cannot start). Its refusals and failures are tested in
process: supervisor/test_one_off_commands.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from procler_testkit.harness import PY, Project

CONFIG = """
version: 1
vars: {REGION: eu-west}
processes:
  idle:
    args: [python3, -c, "pass"]
"""


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Project]:
    proj = Project(tmp_path, CONFIG)
    (tmp_path / "sub").mkdir()
    yield proj
    proj.close()


def test_exec_answers_output_exit_code_and_duration(project: Project) -> None:
    script = (
        "import os, sys; print(os.environ['REGION'], os.getcwd()); print('warn', file=sys.stderr)"
    )
    code, answer = project.run("exec", f'{PY} -c "{script}"', "--cwd", "sub")
    data = answer["data"]
    assert (code, answer["success"]) == (0, True)
    assert (data["exit_code"], data["stdout"], data["stderr"]) == (
        0,
        f"eu-west {project.root / 'sub'}\n",
        "warn\n",
    )
    assert (data["context"], data["truncated"], data["timed_out"], data["signal"]) == (
        "local",
        False,
        False,
        None,
    )
    assert isinstance(data["duration_seconds"], float)


def test_a_command_past_its_timeout_is_stopped(project: Project) -> None:
    code, answer = project.run(
        "exec",
        f"{PY} -c \"import time; print('begun', flush=True); time.sleep(30)\"",
        "--timeout",
        "1s",
    )
    assert (code, answer["error_code"]) == (1, "TIMEOUT")
    assert (answer["data"]["timed_out"], answer["data"]["signal"], answer["data"]["stdout"]) == (
        True,
        15,
        "begun\n",
    )
    assert project.marked_pids() == []  # the stopped command left nothing running


def test_a_command_or_cwd_no_process_can_start_with_is_answered_with_a_code(
    project: Project,
) -> None:
    """A program name or a folder longer than a file name may be, and a folder that is a
    file: exit 2 for the argument, START_FAILED for the run, never an OSError (exit 3)."""
    long = "a" * 300
    code, env = project.run("exec", long)
    assert (code, env["error_code"], env["error"]) == (
        1,
        "START_FAILED",
        f"exec: cannot start: File name too long: {long}",
    )
    code, env = project.run("exec", "true", "--cwd", long)
    assert (code, env["error_code"]) == (2, "USAGE")
    code, env = project.run("exec", "true", "--cwd", "/etc/passwd")
    assert (code, env["error_code"], env["error"]) == (
        1,
        "START_FAILED",
        "exec: cannot start: Not a directory: /etc/passwd",
    )
    assert project.run("exec", "true")[0] == 0
