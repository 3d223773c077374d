"""`procler serve --mcp`: the MCP tools over Streamable HTTP on the listener, under its
token, Host and Origin rules; a read-only listener offers only the read-only tools."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from procler_testkit.api_client import Listener, refusal, serve
from procler_testkit.harness import PY, Project

from procler.declarations import APP
from procler.supervisor.api.command_routes import Api
from procler.supervisor.api.mcp_http import answering
from procler.surfaces.arguments import TOOLS

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
    project.ok("start", "api")  # whichever test of the module ran before
    listener = serve(project, "--mcp", "--read-only")
    names, answers = anyio.run(session, listener, [("procler_status", {"name": "api"})])
    reads = {TOOLS.name(c) for c in TOOLS.commands() if c.read_only and not c.secret}
    reads |= {"procler_wait_ready"}
    assert names == sorted(reads)
    assert answers[0]["status"] == "running"


def test_a_tool_call_runs_the_supervisors_command_in_process(tmp_path: Path) -> None:
    """The supervisor's own commands answer from its command table, with the values the
    CLI's parser gives (no socket: no supervisor runs here); a command the CLI runs
    itself answers from a child process running its handler."""
    made = Project(tmp_path / "proj", CONFIG)
    config = str(made.root / ".procler" / "config.yaml")
    asked: list[dict[str, Any]] = []

    async def status(values: dict[str, Any]) -> dict[str, Any]:
        asked.append(values)
        return {"name": values["name"], "status": "running"}

    api = Api(APP, {"status": status}, answered=frozenset(), config_path=config)
    call = answering(api)

    async def calls() -> list[tuple[dict[str, Any], int]]:
        return [
            await call(APP.command("status"), {"name": "api"}),
            await call(APP.command("status"), {"name": "api", "tag": ["web"]}),
            await call(APP.command("config validate"), {}),
            await call(APP.command("status"), {"nme": "api"}),
        ]

    (found, code), _, (valid, valid_code), (wrong, wrong_code) = anyio.run(calls)
    assert (found["data"], code) == ({"name": "api", "status": "running"}, 0)
    assert asked == [
        {"name": "api", "tag": [], "namespace": None},
        {"name": "api", "tag": ["web"], "namespace": None},
    ]
    assert (valid["data"]["valid"], valid["data"]["processes"], valid_code) == (True, 1, 0)
    assert (wrong["error_code"], wrong_code) == ("USAGE", 2)
    assert not (made.root / ".procler" / "state" / "supervisor.sock").exists()
