"""The listener's rules before any app sees a request: Host and Origin, then the bearer
token, then a bounded body; and the token file."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import anyio
import pytest

from agentcli.errors import UsageError
from agentcli.http_guard import (
    BODY_LIMIT,
    Guard,
    Policy,
    PortInUse,
    Receive,
    Scope,
    Send,
    bind_tcp,
    is_loopback,
    load_token,
)

TOKEN = b"t" * 64
POLICY = Policy(7766, TOKEN)
SEEN: list[bytes] = []


async def app(scope: Scope, receive: Receive, send: Send) -> None:
    SEEN.append((await receive())["body"])
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


def call(headers: dict[str, str], path: str = "/mcp", body: bytes = b"{}") -> tuple[int, Any]:
    sent: list[dict[str, Any]] = []
    chunks = [{"type": "http.request", "body": body, "more_body": False}]
    scope = {
        "type": "http",
        "method": "POST",
        "path": path,
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
    }

    async def receive() -> dict[str, Any]:
        return chunks.pop(0)

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    anyio.run(Guard(app, POLICY, "/mcp", "test"), scope, receive, send)
    payload = sent[1]["body"]
    return sent[0]["status"], payload if payload == b"ok" else json.loads(payload)


GOOD = {"Host": "127.0.0.1:7766", "Authorization": "Bearer " + TOKEN.decode()}


def test_a_good_request_reaches_the_app_with_its_body() -> None:
    SEEN.clear()
    assert call(GOOD, body=b'{"a": 1}') == (200, b"ok")
    assert call({**GOOD, "Host": "localhost:7766", "Origin": "http://localhost:7766"})[0] == 200
    assert SEEN == [b'{"a": 1}', b"{}"]


@pytest.mark.parametrize(
    ("headers", "status", "code", "error"),
    [
        ({**GOOD, "Host": "evil.example"}, 403, "FORBIDDEN", "Host evil.example is not an allowed host"),
        ({**GOOD, "Host": "127.0.0.1:9"}, 403, "FORBIDDEN", "Host 127.0.0.1:9 is not an allowed host"),
        ({**GOOD, "Origin": "http://evil.example"}, 403, "FORBIDDEN", "Origin http://evil.example is not an allowed origin"),
        ({"Host": "127.0.0.1:7766"}, 401, "UNAUTHORIZED", "missing or wrong bearer token"),
        ({**GOOD, "Authorization": "Bearer nope"}, 401, "UNAUTHORIZED", "missing or wrong bearer token"),
    ],
)  # fmt: skip
def test_refusals(headers: dict[str, str], status: int, code: str, error: str) -> None:
    SEEN.clear()
    got_status, body = call(headers)
    assert (got_status, body["error_code"], body["error"]) == (status, code, error)
    assert SEEN == []


def test_host_is_checked_before_the_token_and_other_paths_are_not_found() -> None:
    assert call({"Host": "evil.example"})[1]["error_code"] == "FORBIDDEN"
    assert call({**GOOD, "Host": "evil.example", "Authorization": ""})[0] == 403
    status, body = call(GOOD, path="/other")
    assert (status, body["error_code"]) == (404, "ROUTE_NOT_FOUND")
    status, body = call(GOOD, body=b"x" * (BODY_LIMIT + 1))
    assert (status, body["error_code"]) == (413, "PAYLOAD_TOO_LARGE")


def test_the_token_file_is_made_once_0600_in_a_0700_folder(tmp_path: Path) -> None:
    path = tmp_path / "state" / "token"
    token = load_token(path, "tool")
    assert len(token) == 64 and load_token(path, "tool") == token
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    path.write_text("short\n")
    with pytest.raises(UsageError, match="holds no token"):
        load_token(path, "tool")
    os.chmod(path, 0o644)
    path.write_text("a" * 64 + "\n")
    load_token(path, "tool")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_binding_and_loopback() -> None:
    sock = bind_tcp("127.0.0.1", 0)
    try:
        with pytest.raises(PortInUse):
            bind_tcp("127.0.0.1", sock.getsockname()[1])
    finally:
        sock.close()
    assert [is_loopback(h) for h in ("127.0.0.1", "localhost", "[::1]", "0.0.0.0", "example.com")] == [
        True, True, True, False, False
    ]  # fmt: skip
