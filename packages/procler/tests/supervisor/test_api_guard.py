"""The TCP listener's guard in-process: WebSocket scopes (Origin, token, one-time tickets),
slow bodies and heads, the one status mapping, and the resource routes' declarations."""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from agentcli import http_guard
from agentcli.http_guard import ASGIApp, Receive, Scope, Send
from agentcli.main import with_builtins
from procler.declarations import APP
from procler.supervisor.api import head_deadline
from procler.supervisor.api import security as api_security
from procler.supervisor.api.http_errors import http_status
from procler.supervisor.api.rest_resources import RESOURCES
from procler.supervisor.api.security import Policy, SecurityLayer, secured
from procler.supervisor.listener_settings import ServeSettings

TOKEN = b"t" * 64
PORT = 7765
HOST = (b"host", b"127.0.0.1:7765")


class Recorder:
    """An inner app that records what reached it, and what the guard sent back."""

    def __init__(self) -> None:
        self.reached: list[str] = []
        self.sent: list[dict[str, Any]] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.reached.append(scope["path"])

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)


def run(layer: ASGIApp, scope: Scope, recorder: Recorder, receive: Receive | None = None) -> None:
    async def no_body() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def request() -> None:
        await layer(scope, receive or no_body, recorder.send)

    asyncio.run(request())


def reads_and_tickets(scope: Scope) -> bool:
    """What a read-only token may do, as far as these tests go."""
    method: str = scope.get("method", "GET")
    return method == "GET" or scope["path"] == "/v1/ws-ticket"


def guard(recorder: Recorder) -> SecurityLayer:
    return secured(recorder, Policy(PORT, TOKEN), reads_and_tickets)


def ws(path: str = "/v1/ws", query: bytes = b"", *headers: tuple[bytes, bytes]) -> Scope:
    return {"type": "websocket", "path": path, "query_string": query, "headers": [HOST, *headers]}


def test_a_websocket_from_another_origin_is_closed_before_the_app() -> None:
    rec = Recorder()
    layer = guard(rec)
    run(layer, ws("/v1/ws", b"", (b"origin", b"http://evil.example")), rec)
    assert (rec.reached, rec.sent) == ([], [{"type": "websocket.close", "code": 1008}])
    rec = Recorder()
    scope = {**ws(), "extensions": {"websocket.http.response": {}}}
    run(layer, scope, rec)
    assert (rec.reached, rec.sent[0]["status"], rec.sent[1]["body"]) == (
        [],
        401,
        b'{"schema_version":"1.0","success":false,"error":"missing or wrong bearer token",'
        b'"error_code":"UNAUTHORIZED","suggestion":"send `Authorization: Bearer TOKEN`, the '
        b'token in the file `procler serve` names"}',
    )


def issue(layer: ASGIApp) -> str:
    rec = Recorder()
    scope = {
        "type": "http",
        "method": "POST",
        "path": "/v1/ws-ticket",
        "headers": [HOST, (b"authorization", b"Bearer " + TOKEN)],
    }
    run(layer, scope, rec)
    return str(json.loads(rec.sent[1]["body"])["data"]["ticket"])


def test_a_websocket_ticket_works_once() -> None:
    rec = Recorder()
    layer = guard(rec)
    ticket = issue(layer)
    allowed_origin = (b"origin", b"http://localhost:7765")
    for _ in range(2):
        run(layer, ws("/v1/ws", b"ticket=" + ticket.encode(), allowed_origin), rec)
    assert (rec.reached, rec.sent) == (["/v1/ws"], [{"type": "websocket.close", "code": 1008}])
    run(layer, ws("/v1/ws", b"", (b"authorization", b"Bearer " + TOKEN)), rec)
    assert rec.reached == ["/v1/ws", "/v1/ws"]


def test_secrets_that_are_not_ascii_are_refused_not_a_crash(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """With a WebSocket ticket, a login ticket and a session outstanding, a non-ASCII
    value for each (a query's %C3%A9, a latin-1 cookie or CSRF header) is a 401 or 403,
    never a TypeError from compare_digest (a 500 with a traceback)."""
    rec = Recorder()
    layer = secured(rec, Policy(PORT, TOKEN, dashboard=True), reads_and_tickets)
    issue(layer)
    layer.sessions.login_ticket()
    made = layer.sessions.exchange(layer.sessions.login_ticket())
    assert made is not None
    cookie = made[0]
    page = {"type": "http", "method": "GET", "path": "/login", "query_string": b"ticket=%C3%A9"}
    run(layer, {**page, "headers": [HOST]}, rec)
    assert rec.sent[0]["status"] == 401  # the login page: that URL does not log in
    rec.sent.clear()
    scope = {**ws("/v1/ws", b"ticket=%C3%A9"), "extensions": {"websocket.http.response": {}}}
    run(layer, scope, rec)
    assert rec.sent[0]["status"] == 401
    rec.sent.clear()
    api = {"type": "http", "method": "GET", "path": "/v1/processes", "query_string": b""}
    run(layer, {**api, "headers": [HOST, (b"cookie", "procler_session=é".encode("latin-1"))]}, rec)
    assert rec.sent[0]["status"] == 401
    rec.sent.clear()
    change = {**api, "method": "POST", "path": "/v1/commands/stop"}
    csrf = (b"x-procler-csrf", "é".encode("latin-1"))
    run(
        layer,
        {**change, "headers": [HOST, (b"cookie", f"procler_session={cookie}".encode()), csrf]},
        rec,
    )
    assert rec.sent[0]["status"] == 403
    assert rec.reached == [] and not [r for r in caplog.records if r.exc_info]


def test_an_expired_ticket_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(api_security, "TICKET_LIFE", -1.0)
    rec = Recorder()
    layer = guard(rec)
    run(layer, ws("/v1/ws", b"ticket=" + issue(layer).encode()), rec)
    assert (rec.reached, rec.sent) == ([], [{"type": "websocket.close", "code": 1008}])


def test_a_body_that_does_not_come_times_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(http_guard, "BODY_WAIT", 0.05)
    rec = Recorder()

    async def never() -> dict[str, Any]:
        await asyncio.Event().wait()
        return {}

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/v1/commands/status",
        "headers": [HOST, (b"authorization", b"Bearer " + TOKEN)],
    }
    run(secured(rec, Policy(PORT, TOKEN), lambda scope: True), scope, rec, never)
    assert (rec.reached, rec.sent[0]["status"], rec.sent[1]["body"]) == (
        [],
        408,
        b'{"schema_version":"1.0","success":false,"error":"the request body did not arrive '
        b'within 0.05s","error_code":"REQUEST_TIMEOUT","suggestion":"send the whole request '
        b'body at once"}',
    )


def test_a_client_that_never_finishes_its_head_is_cut_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(head_deadline, "HEADER_WAIT", 0.2)

    async def scenario() -> bytes:
        sock = http_guard.bind_tcp("127.0.0.1", 0)
        config = uvicorn.Config(Recorder(), http=head_deadline.HeaderDeadline, lifespan="off")
        config.load()
        server = uvicorn.Server(config)
        server.lifespan = config.lifespan_class(config)
        await server.startup(sockets=[sock])
        try:
            reader, writer = await asyncio.open_connection(*sock.getsockname()[:2])
            writer.write(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never the blank line
            got = await asyncio.wait_for(reader.read(), timeout=10)
            writer.close()
            return got
        finally:
            await server.shutdown()

    assert asyncio.run(scenario()) == b""  # closed, nothing answered


def test_past_the_heads_one_address_may_send_the_oldest_slow_one_is_closed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(head_deadline, "HEADS_PER_PEER", 4)

    async def scenario() -> list[bytes]:
        sock = http_guard.bind_tcp("127.0.0.1", 0)
        config = uvicorn.Config(Recorder(), http=head_deadline.HeaderDeadline, lifespan="off")
        config.load()
        server = uvicorn.Server(config)
        server.lifespan = config.lifespan_class(config)
        await server.startup(sockets=[sock])
        try:
            slow = []
            for _ in range(6):  # each sends part of a head, then nothing
                reader, writer = await asyncio.open_connection(*sock.getsockname()[:2])
                writer.write(b"GET /health HTTP/1.1\r\n")
                await writer.drain()
                slow.append((reader, writer))
                await asyncio.sleep(0.05)  # accepted in this order
            closed = [await asyncio.wait_for(r.read(), timeout=10) for r, _ in slow[:2]]
            assert not any(r.at_eof() for r, _ in slow[2:])  # the four newest still wait
            for _, writer in slow:
                writer.close()
            return closed
        finally:
            await server.shutdown()

    assert asyncio.run(scenario()) == [b"", b""]  # the two oldest: closed, nothing answered


def test_one_mapping_gives_every_status() -> None:
    codes = {
        "USAGE": 2,
        "UNAUTHORIZED": 2,
        "FORBIDDEN": 2,
        "PROCESS_NOT_FOUND": 2,
        "GROUP_NOT_FOUND": 2,
        "CONFLICT": 2,
        "PAYLOAD_TOO_LARGE": 2,
        "CONFIG_INVALID": 2,
        "TIMEOUT": 1,
        "INTERNAL": 3,
        "SUPERVISOR_UNAVAILABLE": 3,
    }
    got = {code: http_status({"error_code": code}, exit) for code, exit in codes.items()}
    assert got == {
        "USAGE": 400,
        "UNAUTHORIZED": 401,
        "FORBIDDEN": 403,
        "PROCESS_NOT_FOUND": 404,
        "GROUP_NOT_FOUND": 404,
        "CONFLICT": 409,
        "PAYLOAD_TOO_LARGE": 413,
        "CONFIG_INVALID": 422,
        "TIMEOUT": 409,
        "INTERNAL": 500,
        "SUPERVISOR_UNAVAILABLE": 503,
    }
    assert http_status({"success": True}, 0) == 200


def test_resource_routes_are_reads_of_declared_arguments() -> None:
    app = with_builtins(APP)
    for res in RESOURCES:
        cmd = app.command(res.command)
        args = {a.dest: a for a in cmd.args}
        assert cmd.read_only, res.path
        assert [p for p in res.params if args[p].positional] == res.params, res.path
        assert [q for q in res.query if not args[q].positional] == list(res.query), res.path


def test_the_listener_binds_loopback_only_unless_told(tmp_path: Path) -> None:
    from agentcli.errors import UsageError

    with pytest.raises(UsageError):
        ServeSettings.of({"host": "192.0.2.1"})
    assert ServeSettings.of({"host": "::1"}).host == "::1"
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        from procler.errors import PortInUse

        with pytest.raises(PortInUse):
            http_guard.bind_tcp("127.0.0.1", taken.getsockname()[1], PortInUse)
    finally:
        taken.close()


def test_serve_warns_on_stderr_of_a_host_others_can_reach(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from procler.cli import client, daemon

    monkeypatch.setattr(client, "forward", lambda values, command: "forwarded")
    serve = APP.command("serve")
    for host, warned in (("0.0.0.0", True), ("127.0.0.1", False), ("localhost", False)):
        assert daemon.serve({"host": host, "allow_remote": True}, serve) == "forwarded"
        assert capsys.readouterr().err.startswith("procler serve: warning:") is warned, host
