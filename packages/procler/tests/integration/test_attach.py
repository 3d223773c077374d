"""`procler up --attach`: the stack in the foreground, in a pseudo-terminal (Ctrl-C typed
into it) and in tmux. Output lines after their process's name, coloured and aligned;
[procler] lines for status changes; the first Ctrl-C stops the stack gracefully, a second
one kills it; the exit code says how it ended."""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable, Iterator

import pytest
from agentcli_testkit.terminal import Terminal
from procler_testkit.harness import PROCLER, PY, Project, wait_for

# web prints two lines and keeps running; migrate prints and exits 0 (a one-shot).
STACK = f"""
version: 1
processes:
  web:
    command: {PY} -u -c "import time; print('web listening'); print('web ready'); time.sleep(600)"
  migrate:
    command: {PY} -c "print('migrated')"
    restart: "no"
"""
# stubborn ignores SIGTERM: only a kill ends it before its minute is over.
STUBBORN = f"""
version: 1
processes:
  stubborn:
    command: {PY} -u -c "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); print('up'); time.sleep(600)"
    stop_timeout: 60s
"""
# bad fails with exit code 3 once web runs; web stays up.
FAILING = f"""
version: 1
processes:
  web:
    command: {PY} -c "import time; time.sleep(600)"
  bad:
    command: {PY} -c "import sys, time; time.sleep(0.5); sys.exit(3)"
    restart: "no"
    depends_on: [web]
"""


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROCLER_")}
    env.pop("NO_COLOR", None)
    return {**env, "TERM": "xterm-256color", **extra}


@pytest.fixture
def attached(
    make_project: Callable[[str], Project],
) -> Iterator[Callable[..., tuple[Project, Terminal]]]:
    started: list[Terminal] = []

    def run(config: str, *args: str, **env: str) -> tuple[Project, Terminal]:
        project = make_project(config)
        term = Terminal([PROCLER, "up", "--attach", *args], project.root, environment(**env))
        started.append(term)
        return project, term

    yield run
    for term in started:
        term.close()


def test_output_and_status_lines_then_ctrl_c_stops_gracefully(
    attached: Callable[..., tuple[Project, Terminal]],
) -> None:
    project, term = attached(STACK, NO_COLOR="1")
    term.read_until("[procler] the stack is up (2 processes); Ctrl-C stops it")
    term.read_until("web     | web ready")  # aligned to the longest name, migrate
    shown = term.read_until("migrate | migrated")
    lines = shown.splitlines()
    assert lines.index("web     | web listening") < lines.index("web     | web ready")
    assert "[procler] web: stopped -> starting (start requested)" in lines
    exited = r"^\[procler\] migrate: (starting|running) -> exited \(exit code 0\)$"
    assert re.search(exited, shown, re.MULTILINE)
    pid = project.ok("status", "web")["pid"]
    term.press(b"\x03")  # Ctrl-C, through the terminal
    shown = term.read_until("[procler] the stack is stopped")
    assert (
        "[procler] stopping the stack: dependents first, each with its stop signal and "
        "timeout (Ctrl-C again kills it)\n"
    ) in shown
    assert "[procler] web: stopping -> stopped (stop requested)\n" in shown
    assert term.wait() == 0
    assert project.ok("status", "web")["status"] == "stopped"
    assert not os.path.exists(f"/proc/{pid}")


def test_names_are_coloured_at_a_terminal(
    attached: Callable[..., tuple[Project, Terminal]],
) -> None:
    _project, term = attached(STACK)
    term.read_until("Ctrl-C stops it")
    shown = term.read_until("web ready")
    assert "\x1b[36mweb     |\x1b[0m web listening\n" in shown
    term.read_until("\x1b[33mmigrate |\x1b[0m migrated\n")
    term.read_until("\x1b[1m[procler]\x1b[0m web: starting -> \x1b[32mrunning\x1b[0m (started)\n")
    term.press(b"\x03")
    assert term.wait() == 0


def test_a_second_ctrl_c_kills(attached: Callable[..., tuple[Project, Terminal]]) -> None:
    project, term = attached(STUBBORN, NO_COLOR="1")
    term.read_until("stubborn | up")
    term.read_until("the stack is up")
    term.press(b"\x03")
    term.read_until("[procler] stubborn: running -> stopping (stop requested)")
    term.press(b"\x03")  # its stop would wait 60 s for SIGTERM, which it ignores
    shown = term.read_until("[procler] the stack is killed", timeout=20)
    assert "[procler] killing the stack\n" in shown
    assert term.wait(timeout=20) == 130
    after = project.ok("status", "stubborn")
    assert (after["status"], after["last_exit"]["signal"]) == ("stopped", 9)
    assert project.marked_pids() == []


def test_the_first_failed_process_gives_the_exit_code(
    attached: Callable[..., tuple[Project, Terminal]],
) -> None:
    _project, term = attached(FAILING, NO_COLOR="1")
    term.read_until("[procler] bad: running -> failed (exit code 3)")
    term.press(b"\x03")
    term.read_until("[procler] the stack is stopped")
    assert term.wait() == 3


def test_a_stack_whose_processes_all_end_ends_the_session(
    attached: Callable[..., tuple[Project, Terminal]],
) -> None:
    config = STACK.replace("print('web ready'); time.sleep(600)", "print('web ready')")
    _project, term = attached(config, NO_COLOR="1")
    shown = term.read_until("[procler] every process has ended")
    assert "web     | web ready" in shown
    assert term.wait() == 0


def test_an_up_that_fails_is_an_envelope_and_stops_what_started(
    attached: Callable[..., tuple[Project, Terminal]],
) -> None:
    config = STACK + "  broken:\n    command: /no/such/program\n    depends_on: [web]\n"
    project, term = attached(config, NO_COLOR="1")
    shown = term.read_until("[procler] the stack is stopped")
    assert '"error_code": "START_FAILED"' in shown
    assert "[procler] up failed: stopping what it started\n" in shown
    assert term.wait() == 1  # START_FAILED's exit code
    assert project.ok("status", "web")["status"] == "stopped"


def test_attach_and_tui_are_not_for_programs(make_project: Callable[[str], Project]) -> None:
    project = make_project(STACK)
    code, env = project.run("up", "--attach", "--tui")
    assert (code, env["error_code"], env["suggestion"]) == (
        2,
        "USAGE",
        "choose one of them",
    )
    code, env = project.run("up", "--tui")  # checked before anything starts
    assert (code, env["error"]) == (2, "procler up --tui needs a terminal (stdin and stdout)")
    assert project.ok("status", "web")["status"] == "stopped"


def test_a_stop_waiting_on_its_timeout_is_cut_short_by_a_kill(
    make_project: Callable[[str], Project],
) -> None:
    project = make_project(STUBBORN)
    project.ok("start", "stubborn")
    with subprocess.Popen(
        [PROCLER, "stop", "stubborn"],
        cwd=project.root,
        stdout=subprocess.DEVNULL,
        env=environment(),
    ) as slow:
        assert wait_for(lambda: project.ok("status", "stubborn")["status"] == "stopping")
        killed = project.ok("stop", "stubborn", "--kill")
        assert (killed["status"], killed["last_exit"]["signal"]) == ("stopped", 9)
        assert slow.wait(timeout=20) == 0
    assert project.marked_pids() == []


def test_attached_in_tmux(tmux: list[str], make_project: Callable[[str], Project]) -> None:
    project = make_project(STACK)

    def pane(what: str = "") -> str:
        asked = ["display-message", "-p", what] if what else ["capture-pane", "-p"]
        done = subprocess.run(
            [*tmux, *asked[:1], "-t", "up", *asked[1:]], capture_output=True, text=True, timeout=10
        )
        return done.stdout

    subprocess.run(
        [
            *tmux,
            "new-session",
            "-d",
            "-s",
            "up",
            "-x",
            "120",
            "-y",
            "40",
            # the shell ignores Ctrl-C (procler sets its own handlers) and keeps the exit code
            "sh",
            "-c",
            f"trap '' INT; {PROCLER} up --attach; echo $? > ended",
        ],
        cwd=project.root,
        env=environment(),
        check=True,
        timeout=10,
    )
    subprocess.run(
        [*tmux, "set-option", "-t", "up", "remain-on-exit", "on"], check=True, timeout=10
    )
    assert wait_for(lambda: "Ctrl-C stops it" in pane() and "web ready" in pane(), 30), pane()
    subprocess.run([*tmux, "send-keys", "-t", "up", "C-c"], check=True, timeout=10)
    ended = project.root / "ended"
    assert wait_for(ended.exists, 30), pane()
    assert wait_for(lambda: ended.read_text() == "0\n", 10), ended.read_text()
    assert "[procler] the stack is stopped" in pane()
    assert project.ok("status", "web")["status"] == "stopped"
