"""`--format table` for a person: the list-shaped commands as aligned columns, coloured only
at a terminal without NO_COLOR, `PROCLER_FORMAT=table` at a terminal; JSON stays the
default on every path (the supervisor's answer from argv included) and errors stay
envelopes."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from agentcli_testkit.terminal import Terminal
from procler_testkit.harness import PROCLER, PY, Project

from procler.declarations import APP

TABLE_COMMANDS = {
    "status",
    "list",
    "history",
    "group status",
    "schedule list",
    "recipe runs",
    "recipe status",
    "namespace list",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def config(port: int) -> str:
    return f"""
version: 1
processes:
  web:
    command: {PY} -c "import time; time.sleep(600)"
    ports: [{port}]
    namespace: front
  once:
    command: {PY} -c "print('done')"
    restart: "no"
  tick:
    command: {PY} -c "pass"
    schedule: {{interval: 1h}}
groups:
  site:
    processes: [web]
recipes:
  bounce:
    steps:
      - stop: web
      - start: web
"""


def columns(line: str) -> list[str]:
    return re.split(r"\s{2,}", line.strip())


def table(project: Project, *args: str, env: dict[str, str] | None = None) -> list[str]:
    proc = subprocess.run(
        [PROCLER, *args, "-f", "table"],
        cwd=project.root,
        capture_output=True,
        text=True,
        timeout=60,
        env={k: v for k, v in os.environ.items() if not k.startswith("PROCLER_")} | (env or {}),
    )
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stdout
    return proc.stdout.splitlines()


def test_the_list_shaped_commands_have_a_table_view() -> None:
    assert {c.name for c in APP.commands if c.table is not None} == TABLE_COMMANDS


def test_status_as_a_table_with_a_supervisor_running(
    make_project: Callable[[str], Project],
) -> None:
    port = free_port()
    project = make_project(config(port))
    project.ok("start", "web")
    pid = project.ok("status", "web")["pid"]
    lines = table(project, "status")
    assert columns(lines[0]) == [
        "NAME",
        "STATUS",
        "HEALTH",
        "PID",
        "UPTIME",
        "RESTARTS",
        "CPU",
        "MEMORY",
        "PORTS",
    ]
    web = columns(lines[1])
    assert web[:4] == ["web", "running", "-", str(pid)]
    assert re.fullmatch(r"\d+(\.\d)?s", web[4]) and re.fullmatch(r"\d+\.\d%", web[6])
    assert (web[5], web[7][-4:], web[8]) == ("0", " MiB", str(port))
    assert [columns(line) for line in lines[2:]] == [
        ["once", "stopped", "-", "-", "-", "0", "-", "-", "-"],
        ["tick", "stopped", "-", "-", "-", "0", "-", "-", "-"],
    ]
    # columns line up: each header starts where its values start (left) or end (right)
    assert lines[1].index("running") == lines[0].index("STATUS")
    assert lines[1].index(str(pid)) + len(str(pid)) == lines[0].index("PID") + len("PID")
    # the answer JSON gives carries the ports too
    assert project.ok("status", "web")["ports"] == [port]


def test_status_as_a_table_from_the_disk(make_project: Callable[[str], Project]) -> None:
    port = free_port()
    project = make_project(config(port))
    assert table(project, "status", "web") == [
        "NAME  STATUS   HEALTH  PID  UPTIME  RESTARTS  CPU  MEMORY  PORTS",
        f"web   stopped  -         -       -         0    -       -  {port}",
    ]
    assert not (project.root / ".procler" / "state" / "supervisor.sock").exists()


def test_every_list_shaped_command_prints_its_table(
    make_project: Callable[[str], Project],
) -> None:
    project = make_project(config(free_port()))
    project.ok("start", "once")
    project.ok("wait", "once", "--for", "exited", "--timeout", "20s")
    run_id = project.ok("recipe", "run", "bounce")["run_id"]
    heads = {
        ("list",): ["NAME", "SOURCE", "CONTEXT", "COMMAND", "DEPENDS ON", "NAMESPACES"],
        ("group", "status", "site"): ["NAME", "STATUS", "HEALTH", "PID", "UPTIME"],
        ("schedule", "list"): ["NAME", "STATUS", "SCHEDULE", "NEXT RUN", "LAST RUN"],
        ("recipe", "runs"): ["RUN ID", "RECIPE", "STATUS", "STARTED", "ENDED", "ERROR"],
        ("namespace", "list"): ["NAME", "PROCESSES"],
    }
    for argv, head in heads.items():
        assert columns(table(project, *argv)[0])[: len(head)] == head, argv
    assert table(project, "namespace", "list")[1:] == ["front    web", "default  once, tick"]
    status = table(project, "recipe", "status", run_id)
    assert columns(status[1])[:3] == [run_id, "bounce", "succeeded"]
    assert status[3:5] == ["steps", status[4]]
    assert [columns(line)[:4] for line in status[5:]] == [
        ["stop-1", "stop", "web", "succeeded"],
        ["start-2", "start", "web", "succeeded"],
    ]
    history = table(project, "history", "once")
    assert history[0] == "exits"
    assert columns(history[1]) == ["ENDED", "RUN", "EXIT CODE", "SIGNAL", "RAN FOR", "REASON"]
    assert columns(history[2])[1:3] == ["1", "0"]
    assert history[history.index("health") + 1] == "no health check has run"


def test_errors_stay_envelopes(make_project: Callable[[str], Project]) -> None:
    project = make_project(config(free_port()))
    project.ok("start", "web")  # a supervisor runs: its answer from argv is declined too
    code, env = project.run("status", "nope", "-f", "table")
    assert (code, env["error_code"]) == (2, "PROCESS_NOT_FOUND")
    code, env = project.run("start", "web", "-f", "table")
    assert (code, env["error_code"]) == (2, "USAGE")
    code, env = project.run("status", "-f", "yaml")
    assert (code, env["error_code"]) == (2, "USAGE")
    assert project.ok("status", "web")["status"] == "running"


def at_a_terminal(project: Project, *argv: str, env: dict[str, str]) -> str:
    base = {k: v for k, v in os.environ.items() if not k.startswith("PROCLER_")}
    base.pop("NO_COLOR", None)
    code, shown = Terminal([PROCLER, *argv], project.root, base | env).output()
    assert code == 0, shown
    return shown


@pytest.mark.parametrize("supervisor", [False, True], ids=["from disk", "supervisor runs"])
def test_procler_format_asks_for_tables_at_a_terminal_only(
    make_project: Callable[[str], Project], supervisor: bool
) -> None:
    project = make_project(config(free_port()))
    if supervisor:
        project.ok("start", "once")
    shown = at_a_terminal(project, "status", env={"PROCLER_FORMAT": "table"})
    assert shown.startswith("\x1b[1mNAME  ")
    plain = at_a_terminal(project, "status", env={"PROCLER_FORMAT": "table", "NO_COLOR": "1"})
    assert plain.startswith("NAME  ") and "\x1b" not in plain
    piped = subprocess.run(
        [PROCLER, "status"],
        cwd=project.root,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PROCLER_FORMAT": "table"},
    )
    assert json.loads(piped.stdout)["data"]["processes"][0]["name"] == "web"
    # a command without a table view answers JSON at a terminal too
    started = json.loads(at_a_terminal(project, "start", "web", env={"PROCLER_FORMAT": "table"}))
    assert started["data"]["status"] == "running"


def test_the_table_lines_are_those_of_the_answer(tmp_path: Path) -> None:
    """A name is the only text of a row here; control characters never reach the screen."""
    from agentcli.table import render

    view = APP.command("status").table
    assert view is not None
    rows = {"processes": [{"name": "a\x1b[31mb", "status": "failed", "restarts": 2}]}
    assert render(view, rows, colour=False).splitlines()[1].startswith("a\\x1b[31mb  failed")
