"""One policy (procler.supervisor.api.access) decides what the listener's token may call,
on every surface: REST (commands and resources), MCP (tools listed and called), the event
stream and the dashboard's session. With a read-only token, every declared command is
tried on each surface, and a command answering secrets (`config show`) is refused
everywhere, as every command that changes something."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from urllib.parse import urlsplit

import anyio
import httpx2
import mcp_types as types
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from procler_testkit.api_client import Listener, serve
from procler_testkit.harness import PY, Project

from agentcli.main import with_builtins
from procler.declarations import APP
from procler.supervisor.api.access import Access
from procler.supervisor.api.rest_resources import RESOURCES
from procler.surfaces.arguments import TOOLS

SECRET = "s3cr3t-env-91c2"
CONFIG = f"""
version: 1
vars: {{TOKEN: {SECRET}}}
processes:
  api:
    command: {PY} -c "import time; time.sleep(600)"
    env: {{API_KEY: "${{TOKEN}}"}}
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Project]:
    made = Project(tmp_path_factory.mktemp("access") / "proj", CONFIG)
    try:
        made.ok("start", "api")
        yield made
    finally:
        made.close()


async def mcp_session(
    listener: Listener, calls: list[str]
) -> tuple[list[str], list[types.CallToolResult]]:
    """(tool names, each call's result) over one MCP session; calls take no arguments."""
    headers = {"Authorization": f"Bearer {listener.token}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=60) as http,
        streamable_http_client(listener.about["mcp"], http_client=http) as (read, write, *_),
        ClientSession(read, write) as client,
    ):
        await client.initialize()
        listed = await client.list_tools()
        results = [await client.call_tool(name, {}) for name in calls]
    return sorted(t.name for t in listed.tools), results


def test_every_command_on_every_surface_with_a_read_only_token(project: Project) -> None:
    listener = serve(project, "--read-only", "--mcp", "--dashboard")
    access = Access(read_only=True)
    allowed = {c.name for c in access.commands() if access.allows(c)}
    assert "config show" not in allowed and "status" in allowed and "stop" not in allowed
    pid = project.ok("status", "api")["pid"]
    seen: list[str] = []  # every answer, for the secret

    # REST: a command's route. A body the parser refuses shows the request got past the
    # token's rules without running anything (400); a refused one is 403.
    for cmd in with_builtins(APP).commands:
        path = "/v1/commands/" + "/".join(cmd.words)
        status, _h, body = listener.call("POST", path, body={"values": {"not_an_option": 1}})
        seen.append(json.dumps(body))
        if cmd.name in allowed:
            assert (status, body["error_code"]) == (400, "USAGE"), cmd.name
        elif cmd in access.commands():
            assert (status, body["error_code"]) == (403, "FORBIDDEN"), cmd.name
        else:  # serve, and what is no tool (mcp, tui, capabilities, skills install)
            assert (status, body["error_code"]) == (404, "ROUTE_NOT_FOUND"), cmd.name
    for resource in RESOURCES:  # the resources are reads
        path = resource.path.replace("{name}", "api")
        status, body = listener.get(path)
        seen.append(json.dumps(body))
        assert status == 200, (path, body)

    # MCP: the tools listed are the commands allowed; any other is refused, unrun
    refused = [TOOLS.name(c) for c in access.commands() if c.name not in allowed]
    names, results = anyio.run(mcp_session, listener, refused)
    assert names == sorted({TOOLS.name(APP.command(n)) for n in allowed} | {"procler_wait_ready"})
    assert all(r.is_error for r in results)
    seen += [str(r.content) for r in results]

    # the event stream and its tickets (`events` is a read)
    status, headers, stream = listener.exchange("GET", "/v1/events?once=true")
    assert (status, headers["content-type"]) == (200, "text/event-stream; charset=utf-8")
    seen.append(stream.decode())
    assert listener.call("POST", "/v1/ws-ticket")[0] == 200

    # the dashboard's session: the same rules as the token
    login = urlsplit(project.ok("dashboard")["url"])
    status, headers, _ = listener.exchange("GET", f"{login.path}?{login.query}", token=None)
    cookie = {"Cookie": headers["set-cookie"].split(";")[0]}
    page = listener.exchange("GET", "/dashboard/", token=None, headers=cookie)[2]
    found = re.search(rb'<meta name="procler-csrf" content="([\w-]+)">', page)
    assert found is not None
    session = {**cookie, "X-Procler-CSRF": found.group(1).decode()}
    assert listener.get("/v1/processes/api", token=None, headers=session)[0] == 200
    for name in ("stop", "config show"):
        path = "/v1/commands/" + name.replace(" ", "/")
        status, _h, body = listener.call("POST", path, token=None, headers=session, body={})
        seen.append(json.dumps(body))
        assert (status, body["error_code"]) == (403, "FORBIDDEN"), name

    assert not [answer for answer in seen if SECRET in answer]
    assert project.ok("status", "api")["pid"] == pid  # nothing was stopped or restarted


def test_a_full_token_reaches_the_same_commands_over_rest_and_mcp(project: Project) -> None:
    listener = serve(project, "--mcp")
    access = Access(read_only=False)
    names, _ = anyio.run(mcp_session, listener, [])
    assert names == sorted({TOOLS.name(c) for c in access.commands()} | {"procler_wait_ready"})
    for cmd in access.commands():
        path = "/v1/commands/" + "/".join(cmd.words)
        status, _h, body = listener.call("POST", path, body={"values": {"not_an_option": 1}})
        assert (status, body["error_code"]) == (400, "USAGE"), cmd.name
    status, _h, body = listener.call("POST", "/v1/commands/config/show", body={"values": {}})
    assert status == 200 and SECRET in json.dumps(body)  # a full token may read secrets
