"""`procler tui` once in a real terminal (tmux): it draws the table, a key starts a process,
and quitting leaves the process running."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from procler_testkit.harness import PROCLER, PY, Project, wait_for

CONFIG = f"""
version: 1
processes:
  api:
    command: {PY} -c "import time; time.sleep(600)"
"""


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[list[str]]:
    if shutil.which("tmux") is None:
        if os.environ.get("PROCLER_REQUIRE_TMUX"):
            pytest.fail("PROCLER_REQUIRE_TMUX is set but tmux is not installed")
        pytest.skip("tmux is not installed (.ci/people-deps.sh installs it)")
    base = ["tmux", "-S", str(tmp_path / "tmux.sock")]
    yield base
    subprocess.run([*base, "kill-server"], capture_output=True, timeout=10)


def screen(tmux: list[str]) -> str:
    done = subprocess.run(
        [*tmux, "capture-pane", "-p", "-t", "tui"], capture_output=True, text=True, timeout=10
    )
    return done.stdout


def test_tui_in_a_real_terminal(tmux: list[str], tmp_path: Path) -> None:
    project = Project(tmp_path / "proj", CONFIG)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROCLER_")}
    env["TERM"] = "xterm-256color"
    try:
        subprocess.run(
            [*tmux, "new-session", "-d", "-s", "tui", "-x", "120", "-y", "30", PROCLER, "tui"],
            cwd=project.root,
            env=env,
            check=True,
            timeout=10,
        )
        assert wait_for(lambda: "api" in screen(tmux) and "stopped" in screen(tmux), 30)
        subprocess.run([*tmux, "send-keys", "-t", "tui", "s"], check=True, timeout=10)
        assert wait_for(lambda: "running" in screen(tmux), 30), screen(tmux)
        subprocess.run([*tmux, "send-keys", "-t", "tui", "q"], check=True, timeout=10)
        gone = subprocess.run([*tmux, "has-session", "-t", "tui"], capture_output=True)
        assert wait_for(
            lambda: (
                subprocess.run([*tmux, "has-session", "-t", "tui"], capture_output=True).returncode
                != 0
            ),
            10,
        ), gone
        assert project.ok("status", "api")["status"] == "running"  # quitting touched nothing
    finally:
        project.close()


def test_tui_without_a_terminal_is_a_usage_error(tmp_path: Path) -> None:
    project = Project(tmp_path / "proj", CONFIG)
    code, envelope = project.run("tui")
    assert (code, envelope["error_code"], envelope["error"]) == (
        2,
        "USAGE",
        "procler tui needs a terminal (stdin and stdout)",
    )
