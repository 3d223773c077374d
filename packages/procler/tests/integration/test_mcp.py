"""`procler mcp` against a real supervisor: every tool over the SDK's in-memory client, and a
session over a real `procler mcp` stdio subprocess."""

from __future__ import annotations

import json
import os
import select
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import anyio
import mcp_types as types
import pytest
from mcp import Client, StdioServerParameters
from procler_testkit.harness import PROCLER, PY, Project

from procler.surfaces.mcp_server import procler_server, runners

SLEEP = f'{PY} -c "import time; time.sleep(600)"'
CONFIG = f"""
version: 1
processes:
  api:
    command: {PY} -c "import time; print('api up', flush=True); time.sleep(600)"
    healthcheck: {{test: "{PY} -c pass", interval: 1s}}
  worker:
    command: {SLEEP}
groups:
  backend: {{processes: [api, worker]}}
recipes:
  check:
    steps:
      - id: hello
        exec: "{PY} -c \\"print(1)\\""
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Project]:
    made = Project(tmp_path / "proj", CONFIG)
    monkeypatch.chdir(made.root)  # in-memory tools run in this process, from its cwd
    try:
        yield made
    finally:
        made.close()


def statuses(data: dict[str, Any]) -> list[tuple[str, str]]:
    return [(p["name"], p["status"]) for p in data["processes"]]


# (tool, arguments, what the structured content must show): in an order that makes sense.
CALLS: list[tuple[str, dict[str, Any], Callable[[Any], Any], Any]] = [
    ("procler_config_path", {}, lambda d: d["exists"], True),
    ("procler_config_validate", {}, lambda d: d["summary"], "2 processes, 1 group, no errors"),
    (
        "procler_config_explain",
        {},
        lambda d: d["paragraph"].split(".")[0],
        "This project defines 2 processes and 1 group",
    ),
    ("procler_config_show", {}, lambda d: sorted(d["processes"]), ["api", "worker"]),
    ("procler_list", {}, lambda d: [p["name"] for p in d["processes"]], ["api", "worker"]),
    ("procler_help_llm", {}, lambda d: d["tool"], "procler"),
    ("procler_define", {"name": "extra", "command": SLEEP}, lambda d: d["changed"], True),
    ("procler_remove", {"name": "extra"}, lambda d: d["changed"], True),
    (
        "procler_run",
        {"name": "oneoff", "cmd": [PY, "-c", "import time; time.sleep(600)"]},
        lambda d: (d["status"], d["source"]),
        ("running", "runtime"),
    ),
    ("procler_start", {"name": "api"}, lambda d: d["name"], "api"),
    ("procler_wait_ready", {"names": ["api"], "timeout": "30s"}, statuses, [("api", "healthy")]),
    ("procler_wait", {"name": "api", "for": "healthy"}, lambda d: d["status"], "healthy"),
    ("procler_status", {"name": "api"}, lambda d: d["status"], "healthy"),
    ("procler_group_start", {"name": "backend"}, lambda d: d["group"], "backend"),
    (
        "procler_group_status",
        {"name": "backend"},
        lambda d: [p["name"] for p in d["processes"]],
        ["api", "worker"],
    ),
    (
        "procler_group_list",
        {},
        lambda d: d["groups"],
        [{"name": "backend", "description": "", "processes": ["api", "worker"]}],
    ),
    ("procler_why", {"name": "worker"}, lambda d: d["why"], "worker is running"),
    (
        "procler_history",
        {"name": "api", "limit": 1},
        lambda d: (d["exits"], [t["to"] for t in d["transitions"]]),
        ([], ["healthy"]),
    ),
    ("procler_logs", {"name": "api"}, lambda d: [x["text"] for x in d["lines"]], ["api up"]),
    (
        "procler_events",
        {},
        lambda d: sorted((p["name"], p["status"]) for p in d["messages"][0]["processes"]),
        [("api", "healthy"), ("oneoff", "running"), ("worker", "running")],
    ),
    (
        "procler_exec",
        {"cmd": f'{PY} -c "print(7)"'},
        lambda d: (d["exit_code"], d["stdout"]),
        (0, "7\n"),
    ),
    ("procler_recipe_list", {}, lambda d: [r["name"] for r in d["recipes"]], ["check"]),
    ("procler_recipe_show", {"name": "check"}, lambda d: [x["id"] for x in d["steps"]], ["hello"]),
    (
        "procler_recipe_run",
        {"name": "check"},
        lambda d: (d["status"], [(x["id"], x["output"]) for x in d["steps"]]),
        ("succeeded", [("hello", "1\n")]),
    ),
    (
        "procler_recipe_runs",
        {"name": "check"},
        lambda d: [r["status"] for r in d["runs"]],
        ["succeeded"],
    ),
    (
        "procler_snippet_save",
        {"name": "hi", "command": "echo @{who}"},
        lambda d: d["changed"],
        True,
    ),
    ("procler_snippet_list", {}, lambda d: [x["name"] for x in d["snippets"]], ["hi"]),
    ("procler_snippet_show", {"name": "hi"}, lambda d: [a["name"] for a in d["args"]], ["who"]),
    (
        "procler_snippet_run",
        {"name": "hi", "arg": ["who=a; b"]},
        lambda d: (d["command"], d["stdout"]),
        ("echo 'a; b'", "a; b\n"),
    ),
    ("procler_snippet_remove", {"name": "hi"}, lambda d: d["removed"], True),
    ("procler_restart", {"name": "worker"}, lambda d: (d["status"], d["run"]), ("running", 2)),
    ("procler_stop", {"name": "worker"}, lambda d: d["status"], "stopped"),
    (
        "procler_group_stop",
        {"name": "backend"},
        statuses,
        [("api", "stopped"), ("worker", "stopped")],
    ),
    ("procler_up", {}, lambda d: sorted(statuses(d))[0], ("api", "healthy")),
    ("procler_down", {}, lambda d: sorted(statuses(d))[0], ("api", "stopped")),
    ("procler_ci", {"timeout": "30s"}, lambda d: d["ready"], True),
    (
        "procler_namespace_list",
        {},
        lambda d: d["namespaces"],
        [{"name": "default", "processes": ["api", "worker", "oneoff"]}],
    ),
    (
        "procler_namespace_stop",
        {"name": "default"},
        statuses,
        [("api", "stopped"), ("worker", "stopped"), ("oneoff", "stopped")],
    ),
    ("procler_namespace_start", {"name": "default"}, lambda d: d["namespaces"], ["default"]),
    (
        "procler_namespace_restart",
        {"name": "default", "timeout": "30s"},
        lambda d: sorted(p["run"] > 1 for p in d["processes"]),
        [True, True, True],
    ),
    ("procler_schedule_list", {}, lambda d: d["schedules"], []),
    ("procler_reload", {}, lambda d: d["processes"], ["api", "worker", "oneoff"]),
    ("procler_serve", {"port": 0}, lambda d: (d["listening"], d["read_only"]), (True, False)),
    ("procler_dashboard", {}, lambda d: urlsplit(d["url"]).path, "/login"),
    ("procler_daemon_status", {}, lambda d: d["running"], True),
    ("procler_daemon_logs", {"tail": 1}, lambda d: len(d["lines"]), 1),
    ("procler_daemon_restart", {}, lambda d: d["running"], True),
    ("procler_daemon_stop", {}, lambda d: d["running"], False),
]


# Commands merged from main at the end of this branch, not driven here yet.
NOT_DRIVEN = [
    "procler_config_schema",
    "procler_export_compose",
    "procler_export_systemd",
    "procler_export_kubernetes",
    "procler_import_procfile",
    "procler_import_compose",
    "procler_import_procler03",
    "procler_import_process_compose",
    "procler_send",  # needs a process with stdin: true: tests/integration/test_send.py
    "procler_scale",  # needs a process with replicas: tests/supervisor/test_replicas.py
    # they need a run id (an interrupted or a running run): tests/supervisor/test_recipe*.py
    "procler_recipe_status",
    "procler_recipe_resume",
    "procler_recipe_cancel",
    # these need a scheduled process (test_schedules.py drives them)
    "procler_schedule_run_now",
    "procler_schedule_pause",
    "procler_schedule_resume",
]


def test_every_tool_over_the_in_memory_client(project: Project) -> None:
    async def session() -> tuple[list[str], list[object], types.CallToolResult]:
        async with Client(procler_server(runners(None))) as client:
            names = [t.name for t in (await client.list_tools()).tools]
            seen = []
            for tool, arguments, view, _expected in CALLS:
                answer = await client.call_tool(tool, arguments)
                assert answer.is_error is False, (tool, answer.structured_content)
                seen.append(view(answer.structured_content))
            refused = await client.call_tool("procler_config_init", {})
        return names, seen, refused

    names, seen, refused = anyio.run(session)
    assert sorted(names) == sorted([c[0] for c in CALLS] + ["procler_config_init", *NOT_DRIVEN])
    assert seen == [c[3] for c in CALLS]
    assert (refused.is_error, refused.structured_content["error_code"]) == (True, "CONFIG_EXISTS")


async def session_steps(client: Client) -> list[object]:
    """start, status, logs, stop, and a refused call: what each answered."""
    started = await client.call_tool("procler_start", {"name": "api"})
    ready = await client.call_tool("procler_wait_ready", {"names": ["api"]})
    status = await client.call_tool("procler_status", {})
    # the line is stored within the output log's flush interval of being printed
    for _ in range(100):
        logs = await client.call_tool("procler_logs", {"name": "api", "tail": 5})
        if logs.structured_content["lines"]:
            break
        await anyio.sleep(0.05)
    stopped = await client.call_tool("procler_stop", {"name": "api"})
    missing = await client.call_tool("procler_why", {"name": "nope"})
    refusal = missing.content[0]
    assert isinstance(refusal, types.TextContent)
    return [
        started.structured_content["name"],
        statuses(ready.structured_content),
        statuses(status.structured_content),
        [line["text"] for line in logs.structured_content["lines"]],
        stopped.structured_content["status"],
        json.loads(refusal.text)["error_code"],
        missing.is_error,
    ]


EXPECTED_SESSION = [
    "api",
    [("api", "healthy")],
    [("api", "healthy"), ("worker", "stopped")],
    ["api up"],
    "stopped",
    "PROCESS_NOT_FOUND",
    True,
]


def test_a_session_over_the_in_memory_client(project: Project) -> None:
    async def go() -> list[object]:
        async with Client(procler_server(runners(None))) as client:
            return await session_steps(client)

    assert anyio.run(go) == EXPECTED_SESSION


def test_a_session_over_a_procler_mcp_subprocess(project: Project) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROCLER_")}
    server = StdioServerParameters(command=PROCLER, args=["mcp"], cwd=project.root, env=env)

    async def go() -> list[object]:
        async with Client(server, read_timeout_seconds=60) as client:
            return await session_steps(client)

    assert anyio.run(go) == EXPECTED_SESSION


def test_stdout_carries_only_protocol_messages(project: Project) -> None:
    """Raw JSON-RPC over a pipe: every stdout line is a protocol message, even when a tool
    fails or starts the supervisor (whose output must not leak onto the wire)."""
    requests = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "test", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "procler_start", "arguments": {"name": "worker"}},
        },
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "procler_status", "arguments": {"name": "nope"}},
        },
    ]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROCLER_")}
    proc = subprocess.Popen(
        [PROCLER, "mcp"],
        cwd=project.root,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,  # unbuffered: select() sees every line that arrived
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("".join(json.dumps(r) + "\n" for r in requests).encode())
    lines: list[bytes] = []
    deadline = time.monotonic() + 60
    # Closing stdin ends the session (and cancels calls in flight): read the answers first.
    while len(lines) < 3 and select.select([proc.stdout], [], [], deadline - time.monotonic())[0]:
        lines.append(proc.stdout.readline())
    rest, errors = proc.communicate(timeout=60)
    # calls run concurrently: answers come in any order
    answers = sorted(
        (json.loads(line) for line in [*lines, *rest.splitlines()]), key=lambda a: a["id"]
    )
    assert proc.returncode == 0, errors.decode()
    assert [(a["jsonrpc"], a["id"]) for a in answers] == [("2.0", 1), ("2.0", 2), ("2.0", 3)]
    assert answers[1]["result"]["structuredContent"]["status"] == "running"
    assert answers[2]["result"]["isError"] is True
    assert answers[2]["result"]["structuredContent"]["error_code"] == "PROCESS_NOT_FOUND"
