"""`procler tui` and `procler up --tui` once in a real terminal (tmux): it draws the table,
a key starts a process (or `up` started them), and quitting leaves the processes running."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from procler_testkit.harness import PROCLER, PY, Project, wait_for

CONFIG = f"""
version: 1
processes:
  api:
    command: {PY} -c "import time; time.sleep(600)"
"""


def screen(tmux: list[str]) -> str:
    done = subprocess.run(
        [*tmux, "capture-pane", "-p", "-t", "tui"], capture_output=True, text=True, timeout=10
    )
    return done.stdout


def opened(tmux: list[str], project: Project, *argv: str) -> None:
    """`procler ARGV` in a 120x30 tmux session named tui."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROCLER_")}
    env["TERM"] = "xterm-256color"
    size = ["-x", "120", "-y", "30"]
    subprocess.run(
        [*tmux, "new-session", "-d", "-s", "tui", *size, PROCLER, *argv],
        cwd=project.root,
        env=env,
        check=True,
        timeout=10,
    )


def quit_leaves_api_running(tmux: list[str], project: Project) -> None:
    subprocess.run([*tmux, "send-keys", "-t", "tui", "q"], check=True, timeout=10)
    has = [*tmux, "has-session", "-t", "tui"]
    assert wait_for(lambda: subprocess.run(has, capture_output=True).returncode != 0, 10), screen(
        tmux
    )
    assert project.ok("status", "api")["status"] == "running"  # quitting touched nothing


def test_tui_in_a_real_terminal(tmux: list[str], tmp_path: Path) -> None:
    project = Project(tmp_path / "proj", CONFIG)
    try:
        opened(tmux, project, "tui")
        assert wait_for(lambda: "api" in screen(tmux) and "stopped" in screen(tmux), 30)
        subprocess.run([*tmux, "send-keys", "-t", "tui", "s"], check=True, timeout=10)
        assert wait_for(lambda: "running" in screen(tmux), 30), screen(tmux)
        quit_leaves_api_running(tmux, project)
    finally:
        project.close()


def test_up_tui_opens_the_tui_on_the_stack_it_started(tmux: list[str], tmp_path: Path) -> None:
    project = Project(tmp_path / "proj", CONFIG)
    try:
        opened(tmux, project, "up", "--tui")
        # the stack runs before the TUI shows it: no key was pressed
        shown = lambda: "api" in screen(tmux) and "running" in screen(tmux)  # noqa: E731
        assert wait_for(shown, 30), screen(tmux)
        quit_leaves_api_running(tmux, project)
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
