"""The rules every HTTP listener of these tools keeps, before any app sees a request.

In this order: the Host header must be one of the allowed hosts and an Origin header, when
present, one of their origins (403 FORBIDDEN: a page reached through DNS rebinding sends its
own Host or Origin); then the bearer token (401 UNAUTHORIZED, with WWW-Authenticate); a
request body is read whole, at most BODY_LIMIT bytes (413) within BODY_WAIT seconds (408).
The token is made once, 32 random bytes as hex, in a file of mode 0600 (its folder 0700);
answers name the file, never the token.

`Guard` applies them all to one ASGI app; a listener with more rules of its own (Procler's:
read-only listeners, WebSocket tickets, dashboard sessions) calls the pieces.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import hmac
import json
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentcli.errors import AgentError, ExitCode, UsageError
from agentcli.main import failure

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

BODY_LIMIT = 1024 * 1024
BODY_WAIT = 10.0  # seconds to send a whole request body
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")


class Unauthorized(AgentError):
    code = "UNAUTHORIZED"
    exit_code = ExitCode.USAGE
    default_suggestion = (
        "send `Authorization: Bearer TOKEN`, the token in the file the server names"
    )


class Forbidden(AgentError):
    code = "FORBIDDEN"
    exit_code = ExitCode.USAGE
    default_suggestion = "call it on an allowed host (see the server's answer)"


class PayloadTooLarge(AgentError):
    code = "PAYLOAD_TOO_LARGE"
    exit_code = ExitCode.USAGE
    default_suggestion = "send a request body of at most 1 MiB"


class RequestTimeout(AgentError):
    code = "REQUEST_TIMEOUT"
    exit_code = ExitCode.USAGE
    default_suggestion = "send the whole request body at once"


class PortInUse(UsageError):
    code = "PORT_IN_USE"
    default_suggestion = "pick another --port (0: any free one), or stop what listens there"


GUARD_STATUS = {
    "UNAUTHORIZED": 401,
    "FORBIDDEN": 403,
    "REQUEST_TIMEOUT": 408,
    "PAYLOAD_TOO_LARGE": 413,
}


@dataclass(frozen=True)
class Policy:
    """What a listener admits. `extra_hosts` are --allow-host values (a name or an address,
    with or without a port); `bind_host` is the address it listens on."""

    port: int
    token: bytes
    bind_host: str = "127.0.0.1"
    extra_hosts: tuple[str, ...] = ()

    def hosts(self) -> frozenset[str]:
        """The Host header values allowed: each host with the served port, and an
        --allow-host value also as given (a reverse proxy may drop the port)."""
        bound = f"[{self.bind_host}]" if ":" in self.bind_host else self.bind_host
        names = {*LOOPBACK_HOSTS, bound} - {"0.0.0.0", "[::]"}
        allowed = {f"{name}:{self.port}" for name in names}
        for extra in self.extra_hosts:
            allowed |= {extra.lower(), f"{extra.lower()}:{self.port}"}
        return frozenset(allowed)

    def origins(self) -> frozenset[str]:
        return frozenset(
            f"{scheme}://{host}" for host in self.hosts() for scheme in ("http", "https")
        )


def header(scope: Scope, name: bytes) -> list[str]:
    return [v.decode("latin-1") for k, v in scope["headers"] if k == name]


def check_host(
    scope: Scope, hosts: frozenset[str], origins: frozenset[str], other_hosts: str = ""
) -> None:
    """Host and Origin: refused before anything else (DNS rebinding). `other_hosts` says
    how to allow another host, when the listener can."""
    given = header(scope, b"host")
    if len(given) != 1 or given[0].lower() not in hosts:
        raise Forbidden(
            f"Host {', '.join(given) or '(none)'} is not an allowed host",
            suggestion="call it as one of " + ", ".join(sorted(hosts)) + other_hosts,
        )
    origin = header(scope, b"origin")
    if origin and (len(origin) != 1 or origin[0].lower() not in origins):
        raise Forbidden(
            f"Origin {', '.join(origin)} is not an allowed origin",
            suggestion="only pages served from an allowed host may call the API",
        )


def bearer(scope: Scope) -> bytes:
    """The request's bearer token (empty when it has none)."""
    token = b""
    for value in header(scope, b"authorization"):
        scheme, _, given = value.partition(" ")
        if scheme.lower() == "bearer":
            token = given.strip().encode("latin-1")
    return token


def token_matches(given: bytes, token: bytes) -> bool:
    return bool(given) and hmac.compare_digest(given, token)


async def bounded_body(scope: Scope, receive: Receive) -> Receive:
    """Read the whole body (bounded in size and time); the app reads it from here."""
    declared = header(scope, b"content-length")
    if declared and declared[0].isdigit() and int(declared[0]) > BODY_LIMIT:
        raise PayloadTooLarge(f"the request body is over {BODY_LIMIT} bytes")
    chunks: list[bytes] = []
    size = 0
    last: dict[str, Any] = {"type": "http.request", "body": b"", "more_body": False}
    try:
        async with asyncio.timeout(BODY_WAIT):
            while True:
                message = await receive()
                if message["type"] != "http.request":
                    last = message  # the client left: the app hears it
                    break
                size += len(message.get("body", b""))
                if size > BODY_LIMIT:
                    raise PayloadTooLarge(f"the request body is over {BODY_LIMIT} bytes")
                chunks.append(message.get("body", b""))
                if not message.get("more_body"):
                    break
    except TimeoutError:
        raise RequestTimeout(f"the request body did not arrive within {BODY_WAIT:g}s") from None
    if last["type"] == "http.request":
        last = {**last, "body": b"".join(chunks)}
    pending = [last]

    async def replay() -> dict[str, Any]:
        return pending.pop() if pending else await receive()

    return replay


async def refuse(send: Send, exc: AgentError, realm: str) -> None:
    """The refusal as the error envelope, with its HTTP status."""
    env, _code = failure(exc)
    body = json.dumps(env, ensure_ascii=False).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    if isinstance(exc, Unauthorized):
        headers.append((b"www-authenticate", f'Bearer realm="{realm}"'.encode()))
    status = GUARD_STATUS.get(exc.code, 404 if exc.code == "ROUTE_NOT_FOUND" else 400)
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class RouteNotFound(UsageError):
    code = "ROUTE_NOT_FOUND"
    default_suggestion = "the server answers at the URL its start line names"


class Guard:
    """One app at one path behind the rules above (HTTP only; anything else is refused)."""

    def __init__(self, app: ASGIApp, policy: Policy, path: str, realm: str) -> None:
        self.app = app
        self.path = path
        self.realm = realm
        self.token = policy.token
        self.hosts = policy.hosts()
        self.origins = policy.origins()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await send({"type": "websocket.close", "code": 1008})
            return
        try:
            check_host(scope, self.hosts, self.origins)
            if not token_matches(bearer(scope), self.token):
                raise Unauthorized("missing or wrong bearer token")
            if scope["path"].rstrip("/") != self.path:
                raise RouteNotFound(f"no route {scope['path']}; the server answers at {self.path}")
            receive = await bounded_body(scope, receive)
        except AgentError as exc:
            await refuse(send, exc, self.realm)
            return
        await self.app(scope, receive, send)


def load_token(path: Path, tool: str) -> bytes:
    """The listener's token, made at the first start in a 0600 file (its folder 0700)."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_hex(32) + "\n")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError as exc:
        raise UsageError(
            f"the token file {path}: {exc.strerror}", suggestion=f"remove {path}"
        ) from None
    with os.fdopen(fd) as handle:
        if os.fstat(handle.fileno()).st_mode & 0o077:
            os.fchmod(handle.fileno(), 0o600)  # an edited copy may have lost its mode
        token = handle.read().strip()
    if len(token) < 32:
        raise UsageError(
            f"the token file {path} holds no token",
            suggestion=f"remove {path}; the next start of `{tool}` makes a new one",
        )
    return token.encode()


def is_loopback(host: str) -> bool:
    """Whether a listener on `host` is reachable from this machine only."""
    if host == "localhost":
        return True
    import ipaddress

    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a name other than localhost may resolve anywhere


def bind_tcp(host: str, port: int, in_use: type[AgentError] = PortInUse) -> socket.socket:
    """A listening, non-blocking socket on host:port (0: any free port); a port in use
    raises `in_use` (a tool whose port errors mean something else gives its own)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # else keep-alive waits 40 ms
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise in_use(
                f"port {port} on {host} is already in use",
                suggestion="pick another --port, or stop what listens there",
                data={"host": host, "port": port},
            ) from None
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    sock.listen(128)
    sock.setblocking(False)
    return sock
