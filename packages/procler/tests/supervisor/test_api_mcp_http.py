"""`procler serve --mcp`: the MCP tools over Streamable HTTP on the listener, under its
token, Host and Origin rules; a read-only listener offers only the read-only tools."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anyio
import httpx2
import pytest
from api_client import Listener, refusal, serve
from harness import PY, Project
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from procler.cli import APP
from procler.surfaces.arguments import tool_name

CONFIG = f"""
version: 1
processes:
  api:
    command: {PY} -c "import time; print('api up', flush=True); time.sleep(600)"
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Project]:
    made = Project(tmp_path_factory.mktemp("mcp") / "proj", CONFIG)
    try:
        yield made
    finally:
        made.close()


async def session(listener: Listener, calls: list[tuple[str, dict[str, Any]]]) -> Any:
    """(tool names, each call's structured content) over one MCP session."""
    headers = {"Authorization": f"Bearer {listener.token}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=60) as http,
        streamable_http_client(listener.about["mcp"], http_client=http) as (read, write, *_),
        ClientSession(read, write) as client,
    ):
        await client.initialize()
        listed = await client.list_tools()
        answers = [(await client.call_tool(name, args)).structured_content for name, args in calls]
    return sorted(t.name for t in listed.tools), answers


def test_mcp_tools_over_http_under_the_listeners_rules(project: Project) -> None:
    listener = serve(project, "--mcp")
    assert listener.about["mcp"] == f"http://127.0.0.1:{listener.port}/mcp"
    names, answers = anyio.run(
        session, listener, [("procler_start", {"name": "api"}), ("procler_status", {"name": "api"})]
    )
    assert ("procler_start" in names, "procler_serve" in names) == (True, False)
    assert [(a["name"], a["status"]) for a in answers] == [("api", "running"), ("api", "running")]
    message = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    status, _h, body = listener.call("POST", "/mcp", token=None, body=message)
    assert (status, body["error_code"]) == (401, "UNAUTHORIZED")
    status, _h, body = listener.call("POST", "/mcp", body=message, headers={"Host": "evil.example"})
    assert (status, body["error"]) == (403, "Host evil.example is not an allowed host")
    origin = {"Origin": "http://evil.example"}
    assert listener.call("POST", "/mcp", body=message, headers=origin)[2] == refusal(
        "FORBIDDEN",
        "Origin http://evil.example is not an allowed origin",
        "only pages served from an allowed host may call the API",
    )


def test_a_read_only_listener_offers_only_read_only_tools(project: Project) -> None:
    listener = serve(project, "--mcp", "--read-only")
    names, answers = anyio.run(session, listener, [("procler_status", {"name": "api"})])
    reads = {tool_name(c) for c in APP.commands if c.read_only} | {"procler_wait_ready"}
    assert names == sorted(reads)
    assert answers[0]["status"] == "running"
