"""A hung (SIGSTOP) supervisor: local commands still answer, and a timeout means "not done"."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Callable

from procler_testkit.harness import PROCLER, PY, Project, wait_for

from procler.project import lock_path, socket_path
from procler.wire import Unanswered, request

CONFIG = f"""version: 1
processes:
  api:
    args: [{PY}, -c, "print('api up', flush=True); import time; time.sleep(600)"]
  db:
    args: [{PY}, -c, "import time; time.sleep(600)"]
"""


def test_requests_that_timed_out_are_not_carried_out_and_local_commands_answer(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(CONFIG)
    api = p.ok("start", "api")
    assert wait_for(lambda: p.ok("logs", "api")["lines"] != [])
    supervisor = p.supervisor_pid()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROCLER_")}
    os.kill(supervisor, signal.SIGSTOP)
    try:
        clients = [
            subprocess.Popen([PROCLER, *argv], cwd=p.root, stdout=subprocess.PIPE, env=env)
            for argv in (["start", "db"], ["stop", "api"])
        ]
        # a short client timeout: the deadline passes long before the supervisor resumes
        body = json.dumps({"values": {"name": "api"}}).encode()
        sock = socket_path(str(p.root))
        try:
            request(sock, "POST", "/v1/commands/restart", body, 0.5, time.time() + 0.3)
            raise AssertionError("a stopped supervisor answered")
        except Unanswered as exc:
            assert exc.taken is False
        local = {
            "logs": p.ok("logs", "api")["lines"][0]["text"],
            "daemon logs": p.ok("daemon", "logs")["path"].endswith("supervisor.log"),
            "validate": p.ok("config", "validate")["valid"],
            "list": p.ok("list")["count"],
            "daemon status": p.ok("daemon", "status"),
        }
        answers = [(c.wait(timeout=60), json.loads(c.communicate()[0])) for c in clients]
    finally:
        os.kill(supervisor, signal.SIGCONT)
    assert local == {
        "logs": "api up",
        "daemon logs": True,
        "validate": True,
        "list": 2,
        "daemon status": {
            "running": True,
            "responding": False,
            "pid": supervisor,
            "linux_state": {"state_code": "T", "state_name": "stopped", "is_killable": True},
            "project_root": str(p.root),
            "socket": sock,
        },
    }
    lock = lock_path(str(p.root))
    for code, answer in answers:
        assert (code, answer["error_code"], answer["error"], answer["suggestion"]) == (
            3,
            "SUPERVISOR_UNAVAILABLE",
            f"the supervisor on {sock} did not answer within 10s: the command was not "
            "carried out (a supervisor drops a request it could not take before its deadline)",
            f"it may be hung: `kill -9 {supervisor}` (the pid in {lock}); the next command "
            "starts a new supervisor, which brings the processes back; then run the command "
            "again",
        )
    log = p.root / ".procler" / "state" / "supervisor.log"
    assert wait_for(lambda: log.read_text().count("past its deadline") == 3)
    after = p.ok("status")["processes"]
    assert [(s["name"], s["status"], s["run"], s["pid"]) for s in after] == [
        ("api", "running", 1, api["pid"]),
        ("db", "stopped", 0, None),
    ]
