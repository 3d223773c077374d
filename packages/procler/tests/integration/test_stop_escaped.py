"""stop finds a run's processes in the supervisor's own tree: a process that double-forked
out of the run's group and session (reparented to the supervisor, a child subreaper) is
stopped with it, while the run's main process keeps running."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from procler_testkit.harness import PY, Project, alive, wait_for

ESCAPER = (
    "import os, sys, time\n"
    "if os.fork() == 0:\n"
    "    os.setsid()\n"
    "    if os.fork() == 0:\n"
    "        open(sys.argv[1] + '.tmp', 'w').write(str(os.getpid()))\n"
    "        os.rename(sys.argv[1] + '.tmp', sys.argv[1])\n"
    "        time.sleep(600)\n"
    "    os._exit(0)\n"
    "time.sleep(600)\n"
)


def parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def test_stop_kills_a_process_that_escaped_to_the_supervisor(
    make_project: Callable[[str], Project], tmp_path: Path
) -> None:
    marker = tmp_path / "escaped.pid"
    p = make_project(
        f"version: 1\nprocesses:\n  escaper:\n    args: [{PY}, -c, {ESCAPER!r}, '{marker}']\n"
    )
    main = p.ok("start", "escaper")["pid"]
    assert wait_for(marker.exists)
    escaped = int(marker.read_text())
    assert wait_for(lambda: parent(escaped) == p.supervisor_pid())
    stopped = p.ok("stop", "escaper")
    assert stopped["status"] == "stopped"
    assert not alive(main)
    assert wait_for(lambda: not alive(escaped))
    assert p.marked_pids() == []
