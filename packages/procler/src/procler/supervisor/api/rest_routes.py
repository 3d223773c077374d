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
from agentcli.parser import parse
from procler.supervisor.api.access import Access
from procler.supervisor.api.command_routes import (
    Api,
    Receive,
    Scope,
    Send,
    handler_values,
    send_body,
    send_json,
)
from procler.supervisor.api.dispatch import Dispatch
from procler.supervisor.api.event_routes import SSE_ROUTE, WS_ROUTE
from procler.supervisor.api.http_errors import MethodNotAllowed, RouteNotFound, status_of_code
from procler.supervisor.api.openapi import openapi_document
from procler.supervisor.api.rest_resources import (
    HEALTH_ROUTE,
    MCP_ROUTE,
    OPENAPI_ROUTE,
    RESOURCES,
    Resource,
    query_argv,
)
from procler.supervisor.api.security import TICKET_ROUTE, ASGIApp
from procler.surfaces.arguments import TOOLS
from procler.wire import ARGV_ROUTE, COMMANDS_PREFIX, reply_bound

log = logging.getLogger("procler.api")
STREAM_ROUTES = (SSE_ROUTE, WS_ROUTE, TICKET_ROUTE)  # the event stream: the `events` command
_MATCHED = "procler.resource"  # the scope's key for resource()'s answer


class RestApi:
    """ASGI app: health, the OpenAPI document, resources, validated commands, MCP (when
    mounted), then the supervisor's own app for anything else."""

    def __init__(self, api: Api, access: Access, mcp: ASGIApp | None = None) -> None:
        self.api = api
        self.access = access
        self.dispatch = Dispatch(api)
        self.mcp = mcp
        self.commands = {cmd.name: cmd for cmd in access.commands()}
        self._document: dict[str, Any] | None = None

    def document(self) -> dict[str, Any]:
        if self._document is None:
            self._document = openapi_document(self.api.app, list(self.commands))
        return self._document

    def permits(self, scope: Scope) -> bool:
        """Whether the listener's token may make this request: the command it stands for,
        as Access decides (a route that is no command: the document routes, and anything
        a GET finds missing). MCP requests pass: its server lists and runs only the tools
        Access allows."""
        path, method = scope["path"], scope.get("method", "GET")
        if path.startswith(COMMANDS_PREFIX):
            cmd = self.commands.get(path[len(COMMANDS_PREFIX) :].replace("/", " "))
            return cmd is None or self.access.allows(cmd)  # unknown: 404 then
        if path in STREAM_ROUTES:
            return self.access.allows(self.api.app.command("events"))
        found = self.resource(scope)
        if found is not None:
            return self.access.allows(self.api.app.command(found[0].command))
        if self.mcp is not None and path == MCP_ROUTE:
            return True
        return method in ("GET", "HEAD") or not self.access.read_only

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
            await self.answer(scope, receive, send)
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
        """The resource route the request's path matches, and its path's parameters; kept
        in the scope, as the access check, the routing and the request each ask."""
        if _MATCHED in scope:
            found: tuple[Resource, list[str]] | None = scope[_MATCHED]
            return found
        raw = scope.get("raw_path") or scope["path"].encode()
        segments = [unquote(s) for s in raw.decode("latin-1").partition("?")[0].split("/")]
        found = None
        for res in RESOURCES:
            params = res.match(segments)
            if params is not None:
                found = res, params
                break
        scope[_MATCHED] = found
        return found

    async def answer(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A command's answer: the supervisor's own, or a child process's passed on as the
        bytes it wrote, within one of Dispatch's turns until it is sent (the largest page
        of logs is held once, never parsed and encoded again)."""
        try:
            argv = await self.request(scope, receive)
            cmd, values = parse(self.api.app, argv)
        except AgentError as exc:
            await send_json(send, *failure(exc))
            return
        assert cmd is not None  # argv always names a command
        values = handler_values(self.api.app, cmd, values)
        if self.dispatch.runs_here(cmd):
            await send_json(send, *await self.dispatch.run(cmd, values, argv))
            return
        async with self.dispatch.slot():
            reply = await self.dispatch.local(cmd, argv, reply_bound(values))
            status = status_of_code(reply.error_code, reply.code)
            await send_body(send, reply.body, status, reply.code)

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
