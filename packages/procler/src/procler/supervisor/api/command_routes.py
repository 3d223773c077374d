"""The supervisor's HTTP app (ASGI): one route per declared command, plus capabilities.

Routes are derived from the command declarations: POST /v1/commands/<words joined by '/'>
with a JSON body {"values": {...}}. A quick answer is the envelope; its exit code travels
in the X-Exit-Code header and picks the HTTP status. A slow one sends its headers first
(X-Reply-Within), then the exit code, a newline and the envelope. A request whose
deadline (X-Deadline) passed before the supervisor read it is dropped, not carried out.

GET /v1/events and /v1/ws (the event stream) are served by `streams` (event_routes.py).

POST /v1/argv is the console entry's shortcut (see procler.entry): the supervisor parses
the raw argv with the same declarations and answers the commands it would be forwarded
anyway; it declines everything else, and the entry then runs the full CLI.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from collections.abc import Awaitable, Callable
from typing import Any

from agentcli.commands import App, Command, asks_local, capabilities, command_args
from agentcli.errors import AgentError, UsageError
from agentcli.main import answer, failure, with_builtins
from agentcli.parser import GLOBAL_ARGS, parse
from procler.errors import ConfigNotFound, SupervisorUnavailable
from procler.project import find_config, named_files
from procler.supervisor.api.http_errors import RouteNotFound, http_status
from procler.supervisor.api.json_bytes import encode
from procler.wire import (
    ARGV_ROUTE,
    COMMANDS_PREFIX,
    DEADLINE,
    EXIT_CODE,
    HEADERS_WITHIN,
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
# Streaming routes asked first (event_routes.EventRoutes): True when they served the request.
Streams = Callable[[Scope, Receive, Send], Awaitable[bool]]

Outcome = tuple[dict[str, Any], int]


class Api:
    """ASGI app mapping declared commands to the supervisor's async handlers.

    `answered` are the declared handlers of commands the CLI hands over verbatim: only
    those are answered from argv. `config_path` is this supervisor's config file.
    """

    def __init__(
        self,
        app: App,
        handlers: dict[str, Handler],
        *,
        answered: frozenset[str],
        config_path: str,
        streams: Streams | None = None,
    ) -> None:
        self.app = with_builtins(app)
        self.streams = streams
        self.handlers = handlers
        self.answered = answered
        self.config_path = config_path
        self.config_real = _real(config_path)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.streams is not None and await self.streams(scope, receive, send):
            return
        if scope["type"] != "http":
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        late = _late_by(scope)
        if late is not None:
            # The client has given up and told its caller nothing was done: keep it true.
            log.warning(
                "dropped %s %s: %.1fs past its deadline", scope["method"], scope["path"], late
            )
            dropped = SupervisorUnavailable(
                f"the request reached the supervisor {late:.1f}s after its deadline: "
                "the command was not carried out",
                suggestion="run the command again",
            )
            await self.reply(
                send, _ready(failure(dropped)), HEADERS_WITHIN, scope["path"] != ARGV_ROUTE
            )
        elif scope["method"] == "POST" and scope["path"] == ARGV_ROUTE:
            await self.serve_argv(body, send)
        else:
            await self.serve_command(scope["method"], scope["path"], body, send)

    async def serve_command(self, method: str, path: str, body: bytes, send: Send) -> None:
        if method == "GET" and path == "/v1/capabilities":
            await self.reply(send, _ready(answer(capabilities(self.app))), HEADERS_WITHIN, True)
            return
        try:
            name, values = self.route(method, path, body)
        except UsageError as exc:
            await self.reply(send, _ready(failure(exc)), HEADERS_WITHIN, True)
            return
        await self.reply(send, self.run(name, values), reply_bound(values), True)

    def route(self, method: str, path: str, body: bytes) -> tuple[str, dict[str, Any]]:
        """(command, values) of a command request; UsageError for anything else."""
        name = (
            path[len(COMMANDS_PREFIX) :].replace("/", " ")
            if path.startswith(COMMANDS_PREFIX)
            else ""
        )
        if method != "POST" or name not in self.handlers:
            raise RouteNotFound(
                f"no such route: {method} {path}",
                suggestion="GET /v1/capabilities lists the commands; POST /v1/commands/<name>",
            )
        try:
            return name, json.loads(body or b"{}").get("values") or {}
        except (ValueError, AttributeError):
            raise UsageError(
                "the request body is not a JSON object",
                suggestion='send {"values": {...}} with the command\'s arguments',
            ) from None

    async def run(self, name: str, values: dict[str, Any]) -> Outcome:
        """The envelope and exit code of one command."""
        try:
            return answer(await self.handlers[name](values))
        except Exception as exc:
            if not isinstance(exc, AgentError):
                log.exception("%s failed", name)
            return failure(exc)

    async def reply(
        self, send: Send, work: Awaitable[Outcome], bound: float, as_json: bool
    ) -> None:
        """Send work's answer: whole when it is ready within HEADERS_WITHIN, else the headers
        first (with X-Reply-Within), so a client can tell a busy supervisor from a hung one.

        A whole JSON answer carries its exit code in X-Exit-Code (and the HTTP status);
        every other answer is the exit code, a newline and the envelope.
        """
        task = asyncio.ensure_future(work)
        done, _ = await asyncio.wait({task}, timeout=HEADERS_WITHIN)
        headers = [(b"content-type", b"text/plain"), (REPLY_WITHIN.encode(), b"%g" % bound)]
        if not done:
            await send({"type": "http.response.start", "status": 200, "headers": headers})
        env, code = await task
        if done and as_json:
            await send_json(send, env, code)
            return
        payload = argv_reply(code, encode(env))
        if done:
            headers.append((b"content-length", b"%d" % len(payload)))
            await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": payload})

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
        await self.reply(send, self.run(name, values), reply_bound(values), False)

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
            or cmd.handler not in self.answered
            or cmd.name not in self.handlers
            or values["help"]
            or values["version"]
            or asks_local(cmd, values)  # a table, a terminal session: the CLI's to do
        ):
            return None
        explicit = values.get("config")
        if explicit and _resolved(cwd, explicit) != config:
            return None  # the entry guessed --config differently from the parser
        if config != self.config_path and _real(config) != self.config_real:
            return None  # another project's config (or other files): not ours to answer
        return cmd.name, handler_values(self.app, cmd, values)


def handler_values(app: App, cmd: Command, values: dict[str, Any]) -> dict[str, Any]:
    """The parsed values a command's handler takes: without the global options (the CLI's
    own) and the local ones (the table view, a terminal session: the caller's to act on)."""
    global_args = {a.dest for a in (*GLOBAL_ARGS, *app.global_args)}
    local = {a.dest for a in command_args(cmd) if a.local}
    return {k: v for k, v in values.items() if k not in global_args | local}


async def send_json(
    send: Send, env: dict[str, Any], code: int, extra: list[tuple[bytes, bytes]] | None = None
) -> None:
    """One whole JSON answer, its status from the envelope (http_errors.http_status)."""
    await send_body(send, encode(env), http_status(env, code), code, extra)


async def send_body(
    send: Send,
    body: bytes,
    status: int,
    code: int,
    extra: list[tuple[bytes, bytes]] | None = None,
) -> None:
    """An envelope already in bytes (a child process's), with its status and exit code."""
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", b"%d" % len(body)),
        (EXIT_CODE.encode(), b"%d" % code),
        *(extra or []),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _ready(outcome: Outcome) -> Outcome:
    return outcome


def _late_by(scope: Scope) -> float | None:
    """How long ago the request's deadline (X-Deadline) passed; None if it has not."""
    for key, value in scope["headers"]:
        if key == DEADLINE.encode():
            try:
                late = time.time() - float(value)
            except ValueError:
                return None
            return late if late > 0 else None
    return None


def _real(config: str) -> list[str]:
    """The files a config names, each by its real path."""
    return [os.path.realpath(f) for f in named_files(config)]


def _resolved(cwd: str, explicit: list[str]) -> str | None:
    """The config file --config names, as the CLI resolves it (None: no such file)."""
    try:
        return find_config(cwd, explicit)
    except ConfigNotFound:
        return None
