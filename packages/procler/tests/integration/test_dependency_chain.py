"""`dependency_down` and `why` follow the chain to the root cause, with the path; a one-shot
that completed is never down, also after a new supervisor took over; `stop NAME` stops
only NAME and says what still runs that depends on it (real processes)."""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Callable
from pathlib import Path

from procler_testkit.harness import PY, Project

SLEEP = f'[{PY}, -c, "import time; time.sleep(600)"]'
# Something outside the project holding a port (it prints which).
STRAY = (
    "import socket, time; s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(); "
    "print(s.getsockname()[1], flush=True); time.sleep(600)"
)


def test_a_completed_one_shot_is_not_down_after_a_new_supervisor_took_over(
    make_project: Callable[[str], Project], tmp_path: Path
) -> None:
    p = make_project(f"""
version: 1
processes:
  db:
    args: {SLEEP}
  migrate:
    args: [{PY}, -c, "open('{tmp_path}/migrations', 'a').write('ran\\\\n')"]
    restart: {{policy: "no"}}
    depends_on: [db]
  api:
    args: {SLEEP}
    depends_on: [{{name: migrate, condition: completed_successfully}}]
""")
    p.ok("up")
    os.kill(p.supervisor_pid(), signal.SIGKILL)
    rows = {r["name"]: r for r in p.ok("status")["processes"]}
    assert [(n, r["status"], r["dependency_down"]) for n, r in rows.items()] == [
        ("db", "running", None),
        ("migrate", "exited", None),
        ("api", "running", None),
    ]
    assert rows["migrate"]["exit_code"] == 0
    # the same session: `up` leaves the completed one-shot alone
    up = {r["name"]: r for r in p.ok("up")["processes"]}
    assert up["migrate"]["already_completed"] is True
    assert (tmp_path / "migrations").read_text() == "ran\n"


def test_a_port_conflict_behind_a_chain_is_the_cause_in_data(
    make_project: Callable[[str], Project], tmp_path: Path
) -> None:
    stray = subprocess.Popen(
        [PY, "-c", STRAY], stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        assert stray.stdout is not None
        port = int(stray.stdout.readline())
        p = make_project(f"""
version: 1
processes:
  db:
    args: {SLEEP}
    ports: [{port}]
  migrate:
    args: [{PY}, -c, "pass"]
    restart: {{policy: "no"}}
    depends_on: [db]
  api:
    args: {SLEEP}
    depends_on: [{{name: migrate, condition: completed_successfully}}]
""")
        code, env = p.run("start", "api")
        assert (code, env["error_code"]) == (1, "DEPENDENCY_FAILED")
        assert env["data"]["cause"] == {
            "process": "db",
            "error_code": "PORT_IN_USE",
            "message": f"db: port {port} is already in use by pid {stray.pid} "
            f"({env['data']['cause']['holder']['command']})",
            "port": port,
            "holder": {
                "pid": stray.pid,
                "command": env["data"]["cause"]["holder"]["command"],
                "procler_process": None,
            },
        }
        assert env["data"]["cause"]["holder"]["command"].startswith(PY)
        assert (env["data"]["blocking"]["name"], env["data"]["waiting"]) == ("db", "migrate")
        # nothing was started behind the conflict
        assert [r["status"] for r in p.ok("status")["processes"]] == ["stopped"] * 3
    finally:
        stray.kill()
        stray.wait()
        assert stray.stdout is not None
        stray.stdout.close()
