"""How a `command:` runs: the program replaces the shell when it can, and stop gives every
process of the run its stop_timeout (a shell dying at once must not cut a handler short)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from procler_testkit.harness import PY, Project, wait_for

GRACEFUL = Path(__file__).parent / "scripts" / "graceful.py"


def config(tmp_path: Path) -> str:
    return f"""
version: 1
processes:
  plain:
    command: {PY} {GRACEFUL} {tmp_path}/plain.txt
  simple:
    command: "{PY} {GRACEFUL} $MARKERS/simple.txt"
    env: {{MARKERS: {tmp_path}}}
  piped:
    command: "{PY} {GRACEFUL} {tmp_path}/piped.txt | cat"
  background:
    command: "{PY} {GRACEFUL} {tmp_path}/background.txt & exit 0"
"""


def cmdline(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")[:-1]


def parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def test_stop_waits_for_the_handler_of_a_shell_run_program(
    make_project: Callable[[str], Project], tmp_path: Path
) -> None:
    p = make_project(config(tmp_path))
    for name in ("plain", "simple", "piped"):
        p.ok("start", name)
        marker = tmp_path / f"{name}.txt"
        assert wait_for(marker.exists)
        stopped = p.ok("stop", name)
        assert stopped["status"] == "stopped"
        assert marker.read_text() == "started\nclean\n", name
    assert p.marked_pids() == []


def test_the_pid_is_the_programs_not_a_shells(
    make_project: Callable[[str], Project], tmp_path: Path
) -> None:
    p = make_project(config(tmp_path))
    pids = []
    for name in ("plain", "simple"):
        started = p.ok("start", name)
        assert cmdline(started["pid"])[:2] == [PY, str(GRACEFUL)], name
        assert parent(started["pid"]) == p.supervisor_pid()
        assert started["shell"] is False
        pids.append(started["pid"])
    assert sorted(p.marked_pids()) == sorted(pids)  # one process each: no shell
    status = p.ok("status", "simple")
    assert status["pid"] == started["pid"]


def test_a_pipeline_keeps_its_shell_and_status_names_the_program(
    make_project: Callable[[str], Project], tmp_path: Path
) -> None:
    p = make_project(config(tmp_path))
    p.ok("start", "piped")
    assert wait_for(lambda: len(p.marked_pids()) == 3)  # sh, python, cat
    status = p.ok("status", "piped")
    assert status["shell"] is True
    assert cmdline(status["pid"])[:2] == [PY, str(GRACEFUL)]
    assert cmdline(parent(status["pid"]))[:2] == ["/bin/sh", "-c"]


def test_what_a_shell_leaves_behind_is_not_blamed_on_the_program(
    make_project: Callable[[str], Project], tmp_path: Path
) -> None:
    p = make_project(config(tmp_path))
    p.ok("start", "background")
    code, env = p.run("wait", "background", "--for", "exited", "--timeout", "10s")
    assert code == 0, env
    assert env["data"]["last_exit"]["reason"] == (
        "exit code 0; killed 1 process(es) still running when its shell ended"
    )
    assert wait_for(lambda: p.marked_pids() == [])
