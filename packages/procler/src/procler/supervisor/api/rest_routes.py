"""The REST surface of the TCP listener (`procler serve`), over the supervisor's Api.

Resource routes (rest_resources) are reads of declared commands: each names its command,
the command's positional arguments its path takes ({name}, one URL-encoded segment) and
the options its query string takes. Every
declared supervisor command is also POST /v1/commands/<words joined by '/'> with a body
{"values": {...}}, checked by the CLI's own parser (as an MCP tool call is) before it
runs. Every answer is whole: the envelope, with the status http_errors.http_status gives.
Any other route goes on to the supervisor's app (the event stream's routes live there),
except POST /v1/argv, the console entry's private route on the unix socket.
"""

from __future__ import annotations

import json
import logging
from typing import Any
from urllib.parse import unquote

from agentcli.errors import AgentError, UsageError
from agentcli.main import failure
from agentcli.parser import GLOBAL_ARGS, parse
from procler.supervisor.api.command_routes import Api, Outcome, Receive, Scope, Send, send_json
from procler.supervisor.api.dispatch import Dispatch
from procler.supervisor.api.http_errors import MethodNotAllowed, RouteNotFound
from procler.supervisor.api.openapi import openapi_document
from procler.supervisor.api.rest_resources import (
    HEALTH_ROUTE,
    MCP_ROUTE,
    NOT_OVER_TCP,
    OPENAPI_ROUTE,
    RESOURCES,
    Resource,
    query_argv,
)
from procler.supervisor.api.security import ASGIApp
from procler.surfaces.arguments import TOOLS
from procler.wire import ARGV_ROUTE, COMMANDS_PREFIX

log = logging.getLogger("procler.api")


class RestApi:
    """ASGI app: health, the OpenAPI document, resources, validated commands, MCP (when
    mounted), then the supervisor's own app for anything else."""

    def __init__(self, api: Api, mcp: ASGIApp | None = None) -> None:
        self.api = api
        self.dispatch = Dispatch(api)
        self.mcp = mcp
        self.commands = {
            name: api.app.command(name) for name in api.handlers if name not in NOT_OVER_TCP
        }
        self._document: dict[str, Any] | None = None

    def document(self) -> dict[str, Any]:
        if self._document is None:
            self._document = openapi_document(self.api.app, list(self.commands))
        return self._document

    def reads(self, method: str, path: str) -> bool:
        """Whether a request only reads (a read-only listener lets only those through).
        MCP requests pass: a read-only listener's MCP server has only read-only tools."""
        if method in ("GET", "HEAD"):
            return True
        if path.startswith(COMMANDS_PREFIX):
            cmd = self.commands.get(path[len(COMMANDS_PREFIX) :].replace("/", " "))
            return cmd is not None and cmd.read_only
        return self.mcp is not None and path == MCP_ROUTE

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope["path"]
        if self.mcp is not None and path == MCP_ROUTE:
            await self.mcp(scope, receive, send)
        elif scope["type"] != "http":
            await self.api(scope, receive, send)
        elif path == ARGV_ROUTE:
            await send_json(send, *failure(RouteNotFound(f"no such route: {path}")))
        elif path in (HEALTH_ROUTE, OPENAPI_ROUTE):
            await self.fixed(scope, send)
        elif path.startswith(COMMANDS_PREFIX) or self.resource(scope) is not None:
            await send_json(send, *await self.outcome(scope, receive))
        else:
            await self.api(scope, receive, send)

    async def fixed(self, scope: Scope, send: Send) -> None:
        if scope["method"] != "GET":
            await send_json(send, *failure(MethodNotAllowed(f"{scope['path']} takes GET")))
            return
        doc = {"ok": True} if scope["path"] == HEALTH_ROUTE else self.document()
        body = json.dumps(doc).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    def resource(self, scope: Scope) -> tuple[Resource, list[str]] | None:
        raw = scope.get("raw_path") or scope["path"].encode()
        segments = [unquote(s) for s in raw.decode("latin-1").partition("?")[0].split("/")]
        for res in RESOURCES:
            params = res.match(segments)
            if params is not None:
                return res, params
        return None

    async def outcome(self, scope: Scope, receive: Receive) -> Outcome:
        try:
            argv = await self.request(scope, receive)
            cmd, values = parse(self.api.app, argv)
        except AgentError as exc:
            return failure(exc)
        assert cmd is not None  # argv always names a command
        for arg in (*GLOBAL_ARGS, *self.api.app.global_args):
            values.pop(arg.dest, None)
        return await self.dispatch.run(cmd, values, argv)

    async def request(self, scope: Scope, receive: Receive) -> list[str]:
        """The argv of a resource or command request; a typed error otherwise."""
        method, path = scope["method"], scope["path"]
        found = self.resource(scope)
        if found is not None:
            res, params = found
            if method != "GET":
                raise MethodNotAllowed(f"{res.path} takes GET, not {method}")
            cmd = self.api.app.command(res.command)
            return query_argv(cmd, res, scope["query_string"], params)
        name = path[len(COMMANDS_PREFIX) :].replace("/", " ")
        if name not in self.commands:
            raise RouteNotFound(f"no such route: {method} {path}")
        if method != "POST":
            raise MethodNotAllowed(f"{path} takes POST, not {method}")
        body = await receive()
        try:
            values = json.loads(body.get("body") or b"{}").get("values") or {}
        except (ValueError, AttributeError):
            values = None
        if not isinstance(values, dict):
            raise UsageError(
                "the request body is not a JSON object",
                suggestion='send {"values": {...}} with the command\'s arguments',
            )
        return TOOLS.to_argv(self.commands[name], values)
