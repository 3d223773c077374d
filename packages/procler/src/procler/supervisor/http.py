"""The supervisor's HTTP app (ASGI): one route per declared command, plus capabilities.

Routes are derived from the command declarations: POST /v1/commands/<words joined by '/'>
with a JSON body {"values": {...}}. The answer is the envelope; its exit code travels in
the X-Exit-Code header and picks the HTTP status.

POST /v1/argv is the console entry's shortcut (see procler.entry): the supervisor parses
the raw argv with the same declarations and answers the commands it would be forwarded
anyway; it declines everything else, and the entry then runs the full CLI.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Awaitable, Callable
from typing import Any

from agentcli.commands import App, capabilities
from agentcli.envelope import dumps
from agentcli.errors import AgentError, UsageError
from agentcli.main import answer, failure, with_builtins
from agentcli.parser import GLOBAL_ARGS, parse
from procler.errors import ConfigNotFound
from procler.project import find_config
from procler.wire import (
    ARGV_ROUTE,
    COMMANDS_PREFIX,
    EXIT_CODE,
    REPLY_WITHIN,
    argv_parts,
    argv_reply,
    reply_bound,
)

log = logging.getLogger("procler.http")

Handler = Callable[[dict[str, Any]], Awaitable[Any]]
Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

HTTP_STATUS = {0: 200, 1: 409, 2: 400, 3: 500, 130: 503}
HEADERS_WITHIN = 1.0  # an argv answer slower than this sends its headers ahead


class Api:
    """ASGI app mapping declared commands to the supervisor's async handlers.

    `forward` is the declared handler of commands the CLI hands over verbatim: only
    those are answered from argv. `config_path` is this supervisor's config file.
    """

    def __init__(
        self, app: App, handlers: dict[str, Handler], *, forward: str, config_path: str
    ) -> None:
        self.app = with_builtins(app)
        self.handlers = handlers
        self.forward = forward
        self.config_path = config_path
        self.config_real = os.path.realpath(config_path)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        if scope["method"] == "POST" and scope["path"] == ARGV_ROUTE:
            await self.serve_argv(body, send)
            return
        env, code = await self.answer(scope["method"], scope["path"], body)
        payload = dumps(env).encode()
        await send(
            {
                "type": "http.response.start",
                "status": HTTP_STATUS.get(code, 500),
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(payload)).encode()),
                    (EXIT_CODE.encode(), str(code).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": payload})

    async def answer(self, method: str, path: str, body: bytes) -> tuple[dict[str, Any], int]:
        if method == "GET" and path == "/v1/capabilities":
            return answer(capabilities(self.app))
        name = (
            path[len(COMMANDS_PREFIX) :].replace("/", " ")
            if path.startswith(COMMANDS_PREFIX)
            else ""
        )
        if method != "POST" or name not in self.handlers:
            return failure(
                UsageError(
                    f"no such route: {method} {path}",
                    suggestion="GET /v1/capabilities lists the commands; POST /v1/commands/<name>",
                )
            )
        try:
            values = json.loads(body or b"{}").get("values") or {}
        except (ValueError, AttributeError):
            return failure(
                UsageError(
                    "the request body is not a JSON object",
                    suggestion='send {"values": {...}} with the command\'s arguments',
                )
            )
        return await self.run(name, values)

    async def run(self, name: str, values: dict[str, Any]) -> tuple[dict[str, Any], int]:
        """The envelope and exit code of one command."""
        try:
            return answer(await self.handlers[name](values))
        except Exception as exc:
            if not isinstance(exc, AgentError):
                log.exception("%s failed", name)
            return failure(exc)

    async def serve_argv(self, body: bytes, send: Send) -> None:
        parts = argv_parts(body)  # cwd, config, argv...
        taken = self.take_argv(parts[0], parts[1], parts[2:]) if len(parts) > 1 else None
        if taken is None:
            await send(
                {
                    "type": "http.response.start",
                    "status": 204,  # declined: the CLI runs the command itself
                    "headers": [],
                }
            )
            await send({"type": "http.response.body", "body": b""})
            return
        name, values = taken
        headers = [
            (b"content-type", b"text/plain"),
            (REPLY_WITHIN.encode(), b"%g" % reply_bound(values)),
        ]
        task = asyncio.ensure_future(self.run(name, values))
        # A quick answer goes out whole; a slow one (wait, start --all) sends its headers
        # first so the entry can tell a busy supervisor from a hung one.
        done, _ = await asyncio.wait({task}, timeout=HEADERS_WITHIN)
        if not done:
            await send({"type": "http.response.start", "status": 200, "headers": headers})
        env, code = await task
        payload = argv_reply(code, dumps(env).encode())
        if done:
            headers.append((b"content-length", b"%d" % len(payload)))
            await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": payload})

    def take_argv(
        self, cwd: str, config: str, argv: list[str]
    ) -> tuple[str, dict[str, Any]] | None:
        """(command, values) when this supervisor answers argv itself, else None."""
        try:
            cmd, values = parse(self.app, argv)
        except UsageError:
            return None  # the full CLI reports it
        if (
            cmd is None
            or cmd.handler != self.forward
            or cmd.name not in self.handlers
            or values["help"]
            or values["version"]
        ):
            return None
        explicit = values.get("config")
        if explicit and _resolved(cwd, explicit) != config:
            return None  # the entry guessed --config differently from the parser
        if config != self.config_path and os.path.realpath(config) != self.config_real:
            return None  # another project's config: not ours to answer
        for arg in (*GLOBAL_ARGS, *self.app.global_args):
            values.pop(arg.dest, None)
        return cmd.name, values


def _resolved(cwd: str, explicit: str) -> str | None:
    """The config file --config names, as the CLI resolves it (None: no such file)."""
    try:
        return find_config(cwd, explicit)
    except ConfigNotFound:
        return None
