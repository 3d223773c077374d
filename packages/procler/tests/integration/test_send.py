"""`procler send` with real processes: a process with `stdin: true` reads what is written
to it; one that closed its stdin answers STDIN_CLOSED; over REST it is a write, and an MCP
tool. The refusals' logic is tested in process: supervisor/test_send_stdin.py."""

from __future__ import annotations

from collections.abc import Callable

import anyio
import mcp_types as types
import pytest
from mcp import Client
from procler_testkit.api_client import serve
from procler_testkit.harness import PY, Project, wait_for

from procler.surfaces.mcp_server import procler_server, runners

# Appends each line it reads to got.txt.
READER = (
    f'[{PY}, -c, "import sys\\nfor line in sys.stdin:\\n'
    "    open('got.txt', 'a', encoding='utf-8').write(line)\"]"
)
CLOSER = (
    f"[{PY}, -c, \"import os, time; os.close(0); open('closed', 'w').close(); time.sleep(600)\"]"
)
CONFIG = f"""version: 1
processes:
  reader: {{args: {READER}, stdin: true}}
  closer: {{args: {CLOSER}, stdin: true}}
"""


def got(p: Project, text: str) -> bool:
    path = p.root / "got.txt"
    return path.exists() and path.read_text(encoding="utf-8") == text


def test_send_writes_to_stdin(make_project: Callable[[str], Project]) -> None:
    p = make_project(CONFIG)
    p.ok("start", "reader")
    assert p.ok("send", "reader", "hello") == {"name": "reader", "bytes": 6, "run": 1}
    assert wait_for(lambda: got(p, "hello\n"))
    assert p.ok("send", "reader", "ab", "--no-newline")["bytes"] == 2
    assert p.ok("send", "reader", "c")["bytes"] == 2
    assert p.ok("send", "reader", "héllo")["bytes"] == 7
    assert wait_for(lambda: got(p, "hello\nabc\nhéllo\n"))
    assert p.ok("status", "reader")["status"] == "running"


def test_a_process_that_closed_its_stdin_is_stdin_closed(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(CONFIG)
    p.ok("start", "closer")
    assert wait_for((p.root / "closed").exists)
    code, env = p.run("send", "closer", "y")
    assert (code, env["error_code"], env["data"]) == (2, "STDIN_CLOSED", {"bytes": 0})
    assert env["error"] == "the process closed its stdin after 0 byte(s) of 2"
    assert p.ok("status", "closer")["status"] == "running"


def test_send_over_rest_is_a_write(make_project: Callable[[str], Project]) -> None:
    p = make_project(CONFIG)
    p.ok("start", "reader")
    listener = serve(p, "--port", "0")
    status, _h, body = listener.call(
        "POST", "/v1/commands/send", body={"values": {"name": "reader", "text": "rest"}}
    )
    assert (status, body["data"]) == (200, {"name": "reader", "bytes": 5, "run": 1})
    assert wait_for(lambda: got(p, "rest\n"))
    reader_only = serve(p, "--read-only")
    status, _h, body = reader_only.call(
        "POST", "/v1/commands/send", body={"values": {"name": "reader", "text": "no"}}
    )
    assert (status, body["error_code"]) == (403, "FORBIDDEN")
    assert got(p, "rest\n")


def test_send_is_an_mcp_tool(
    make_project: Callable[[str], Project], monkeypatch: pytest.MonkeyPatch
) -> None:
    p = make_project(CONFIG)
    p.ok("start", "reader")
    monkeypatch.chdir(p.root)  # in-memory tools run in this process, from its cwd

    async def call() -> types.CallToolResult:
        async with Client(procler_server(runners(None))) as client:
            return await client.call_tool("procler_send", {"name": "reader", "text": "mcp"})

    answer = anyio.run(call)
    assert (answer.is_error, answer.structured_content) == (
        False,
        {"name": "reader", "bytes": 4, "run": 1},
    )
    assert wait_for(lambda: got(p, "mcp\n"))
