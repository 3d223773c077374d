"""The TCP listener's guard: ASGI middleware in front of every route, HTTP and WebSocket.

In this order, before the app sees anything: the Host header must be one of the allowed
hosts and an Origin header, when present, one of their origins (403 FORBIDDEN: a page
reached through DNS rebinding sends its own Host or Origin); then the bearer token
(401 UNAUTHORIZED, with WWW-Authenticate), except on GET /health; then, on a read-only
listener, only reads pass (403 FORBIDDEN). A request body is read whole here, at most
BODY_LIMIT bytes (413) within BODY_WAIT seconds (408), and handed on to the app. Those
rules are every listener's (agentcli.http_guard, which `office-tools mcp --http` keeps
too); what follows is Procler's own.

A WebSocket upgrade cannot carry a header from a browser: it may instead name a ticket
(`?ticket=`) from POST /v1/ws-ticket, which works once and only for TICKET_LIFE seconds.

With the dashboard (`serve --dashboard`), its pages are served here after the Host and
Origin checks (procler.dashboard.pages: each needs a session), and a session cookie is a
credential too; a request that changes something with it must carry the session's CSRF
token (procler.dashboard.sessions).
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from agentcli import http_guard
from agentcli.errors import AgentError
from agentcli.http_guard import bearer, bounded_body, check_host, token_matches
from agentcli.main import answer, failure
from procler.dashboard.pages import is_page
from procler.dashboard.pages import serve as serve_page
from procler.dashboard.sessions import Sessions, same_secret
from procler.supervisor.api.command_routes import Receive, Scope, Send, send_json
from procler.supervisor.api.http_errors import Forbidden, Unauthorized, http_status
from procler.supervisor.api.json_bytes import encode
from procler.supervisor.log_lines import clip

refused = logging.getLogger("procler.refused")  # log_lines.configure rate-limits it

ASGIApp = Callable[[Scope, Receive, Send], Any]
TICKET_LIFE = 30.0  # seconds a WebSocket ticket stays valid
TICKETS_HELD = 64  # outstanding tickets at most; the oldest goes first
HEALTH = "/health"
TICKET_ROUTE = "/v1/ws-ticket"
OTHER_HOSTS = ", or serve with --allow-host NAME"


@dataclass(frozen=True)
class Policy(http_guard.Policy):
    """What the listener admits: every listener's hosts, origins and token, and whether
    it only reads and serves the dashboard."""

    read_only: bool = False
    dashboard: bool = False  # the pages, and session cookies as a credential


class Tickets:
    """One-time WebSocket tickets: each works once, within TICKET_LIFE seconds."""

    def __init__(self) -> None:
        self.held: dict[str, float] = {}  # ticket -> expiry (monotonic)

    def issue(self) -> dict[str, Any]:
        now = time.monotonic()
        self.held = {t: at for t, at in self.held.items() if at > now}
        while len(self.held) >= TICKETS_HELD:
            self.held.pop(next(iter(self.held)))
        ticket = secrets.token_urlsafe(32)
        self.held[ticket] = now + TICKET_LIFE
        return {"ticket": ticket, "expires_in_seconds": TICKET_LIFE}

    def take(self, offered: str) -> bool:
        """Whether `offered` is a live ticket; it is spent either way."""
        match = next((t for t in self.held if same_secret(t, offered)), None)
        if match is None:
            return False
        return self.held.pop(match) > time.monotonic()


class SecurityLayer:
    """See the module docstring. `permits(scope)` says whether the listener's token may
    make a request (procler.supervisor.api.access decides, for every surface)."""

    def __init__(self, app: ASGIApp, policy: Policy, permits: Callable[[Scope], bool]) -> None:
        self.app = app
        self.policy = policy
        self.permits = permits
        self.hosts = policy.hosts()
        self.origins = policy.origins()
        self.tickets = Tickets()
        self.sessions = Sessions()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        try:
            if self.policy.dashboard and scope["type"] == "http" and is_page(scope["path"]):
                self.check_host(scope)  # a page needs a session, which it checks itself
                await serve_page(scope, send, self.sessions)
                return
            self.check(scope)
            if scope["type"] == "http":
                receive = await bounded_body(scope, receive)
        except AgentError as exc:
            refused.warning(  # any client can cause it: clipped, and rate-limited
                "refused %s %s: %s", scope.get("method", "WS"), clip(scope["path"]), exc.code
            )
            await self.refuse(scope, send, exc)
            return
        if scope["type"] == "http" and (scope["method"], scope["path"]) == ("POST", TICKET_ROUTE):
            await send_json(send, *answer(self.tickets.issue()))
            return
        await self.app(scope, receive, send)

    def check(self, scope: Scope) -> None:
        """Raise the refusal this request earns, if any (see the module docstring)."""
        self.check_host(scope)
        method = scope.get("method", "GET")
        if scope["type"] == "http" and method == "GET" and scope["path"] == HEALTH:
            return
        if not self.authorized(scope):
            raise Unauthorized("missing or wrong bearer token")
        if not self.permits(scope):
            raise Forbidden(
                f"{method} {scope['path']} changes something or answers secrets; this "
                "listener is read-only",
                suggestion="only reads are allowed: serve without --read-only to change things",
            )

    def check_host(self, scope: Scope) -> None:
        """Host and Origin: refused before anything else (DNS rebinding)."""
        check_host(scope, self.hosts, self.origins, OTHER_HOSTS)

    def authorized(self, scope: Scope) -> bool:
        token = bearer(scope)
        if token:
            return token_matches(token, self.policy.token)
        session = self.sessions.of(scope["headers"]) if self.policy.dashboard else None
        if session is not None:
            changes = scope["type"] == "http" and scope["method"] not in ("GET", "HEAD")
            if changes and not Sessions.csrf_ok(scope["headers"], session):
                raise Forbidden(
                    "a request that changes something with a session cookie needs its CSRF token",
                    suggestion="send the page's token in the X-Procler-CSRF header",
                )
            return True
        if scope["type"] == "websocket":
            query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
            return "ticket" in query and self.tickets.take(query["ticket"])
        return False

    async def refuse(self, scope: Scope, send: Send, exc: AgentError) -> None:
        env, code = failure(exc)
        extra = (
            [(b"www-authenticate", b'Bearer realm="procler"')]
            if isinstance(exc, http_guard.Unauthorized)
            else []
        )
        if scope["type"] == "http":
            await send_json(send, env, code, extra)
        elif "websocket.http.response" in scope.get("extensions", {}):
            body = encode(env)
            await send(
                {
                    "type": "websocket.http.response.start",
                    "status": http_status(env, code),
                    "headers": [(b"content-type", b"application/json"), *extra],
                }
            )
            await send({"type": "websocket.http.response.body", "body": body})
        else:
            await send({"type": "websocket.close", "code": 1008})  # the server answers 403


def secured(app: ASGIApp, policy: Policy, permits: Callable[[Scope], bool]) -> SecurityLayer:
    """`app` behind the listener's Host/Origin, token, access and body rules."""
    return SecurityLayer(app, policy, permits)
