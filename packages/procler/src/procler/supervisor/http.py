"""The supervisor's HTTP app (ASGI): one route per declared command, plus capabilities.

Routes are derived from the command declarations: POST /v1/commands/<words joined by '/'>
with a JSON body {"values": {...}}. The answer is the envelope; its exit code travels in
the X-Exit-Code header and picks the HTTP status.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from agentcli.commands import App, capabilities
from agentcli.envelope import dumps
from agentcli.errors import AgentError, UsageError
from agentcli.main import failure, with_builtins

log = logging.getLogger("procler.http")

Handler = Callable[[dict[str, Any]], Awaitable[Any]]
Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

HTTP_STATUS = {0: 200, 1: 409, 2: 400, 3: 500, 130: 503}
PREFIX = "/v1/commands/"


class Api:
    """ASGI app mapping declared commands to the supervisor's async handlers."""

    def __init__(self, app: App, handlers: dict[str, Handler]) -> None:
        self.app = with_builtins(app)
        self.handlers = handlers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        env, code = await self.answer(scope["method"], scope["path"], body)
        payload = dumps(env).encode()
        await send(
            {
                "type": "http.response.start",
                "status": HTTP_STATUS.get(code, 500),
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(payload)).encode()),
                    (b"x-exit-code", str(code).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": payload})

    async def answer(self, method: str, path: str, body: bytes) -> tuple[dict[str, Any], int]:
        from agentcli.main import answer

        try:
            if method == "GET" and path == "/v1/capabilities":
                return answer(capabilities(self.app))
            name = path[len(PREFIX) :].replace("/", " ") if path.startswith(PREFIX) else ""
            handler = self.handlers.get(name)
            if method != "POST" or handler is None:
                raise UsageError(
                    f"no such route: {method} {path}",
                    suggestion="GET /v1/capabilities lists the commands; POST /v1/commands/<name>",
                )
            request = json.loads(body or b"{}")
            return answer(await handler(request.get("values") or {}))
        except Exception as exc:
            if not isinstance(exc, AgentError):
                log.exception("%s %s failed", method, path)
            return failure(exc)
