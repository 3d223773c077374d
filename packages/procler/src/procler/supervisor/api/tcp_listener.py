"""`procler serve`: the supervisor's TCP listener, opened in the supervisor process.

The listener lives in the supervisor, so it outlives the `serve` call that opened it; its
settings are kept in the state directory, so the supervisor that replaces this one
(`daemon restart`, recovery after a crash) listens the same way; `serve --stop` and
`daemon stop` forget them. Serving again with the same settings leaves it as it is;
other settings replace it. The app it serves is the REST
surface (rest_routes) behind the security layer (security), with MCP's Streamable
HTTP app at /mcp under `--mcp`. The token is made once, 32 random bytes, in the state
directory (0600 in 0700); answers name its file, never the token.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import logging
import os
from contextlib import AsyncExitStack
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from agentcli.errors import AgentError
from procler.config.state_files import read_state_json
from procler.errors import PortInUse
from procler.supervisor.listener_settings import ServeSettings

TYPE_CHECKING = False
if TYPE_CHECKING:
    import uvicorn

    from procler.supervisor.api.command_routes import Api
    from procler.supervisor.api.security import SecurityLayer

log = logging.getLogger("procler.api")

TOKEN_FILE = "api-token"
SETTINGS_FILE = "serve.json"  # the open listener's settings, for the next supervisor
KEEP_ALIVE = 5  # seconds an idle connection stays open
MAX_REQUESTS = 64  # being answered at once; beyond: 503 (head_deadline counts only these)
SHUTDOWN_GRACE = 3  # seconds requests in flight get when the listener closes


# What the bearer token lets its holder do (`token_allows` in the answer).
READ_ONLY = (
    "read only: every read (GET routes: status, logs, history, config...) and the commands "
    "that change nothing; any other answers 403 FORBIDDEN"
)
READ_WRITE = (
    "everything the CLI does: reads, and every command that changes something (start, stop, "
    "restart, up, down, recipes, exec...); `procler serve --read-only` for reads only"
)


class TcpListener:
    """The supervisor's one TCP listener, absent until `serve` opens it."""

    def __init__(self, state_dir: Path) -> None:
        # the app it serves over TCP, which main gives once its command table (which holds
        # this listener for `serve`) is made
        self.api: Api | None = None
        self.state_dir = state_dir
        self.settings: ServeSettings | None = None
        self.server: uvicorn.Server | None = None
        self.stack = AsyncExitStack()
        self.about: dict[str, Any] = {"listening": False}
        self.layer: SecurityLayer | None = None

    async def serve(self, settings: ServeSettings) -> dict[str, Any]:
        """Listen with these settings (as now, if they are the same); answers what it does."""
        if self.settings is not None and settings.port == 0:
            settings = replace(settings, port=self.settings.port)  # any port: this one
        if settings == self.settings:
            return {**self.about, "already_listening": True}
        await self.close()
        self.drop_settings()
        await self.open(settings)
        self.keep_settings()
        return self.about

    async def stop_serving(self) -> dict[str, Any]:
        """Close the listener; the next supervisor does not listen either."""
        was = self.about
        self.drop_settings()
        await self.close()
        return {"listening": False, "stopped": was["listening"]}

    async def dashboard(self, port: int | None) -> dict[str, Any]:
        """Listen with the dashboard (as now, or on the port asked), and answer a login URL
        that works once, within a minute."""
        from procler.dashboard.pages import LOGIN_ROUTE
        from procler.dashboard.sessions import LOGIN_LIFE

        current = self.settings
        if current is None or not current.dashboard or port not in (None, current.port):
            await self.serve(ServeSettings.with_dashboard(current, port))
        assert self.layer is not None and self.settings is not None, "serve opened it"
        ticket = self.layer.sessions.login_ticket()
        return {
            "url": f"{self.about['url']}{LOGIN_ROUTE}?ticket={ticket}",
            "expires_in_seconds": LOGIN_LIFE,
            "dashboard": self.about["dashboard"],
        }

    def keep_settings(self) -> None:
        """Keep the settings (with the port bound), so that a supervisor started after this
        one (`daemon restart`, or recovery after a crash) listens the same way."""
        assert self.settings is not None, "remembered once open"
        fd = os.open(self.state_dir / SETTINGS_FILE, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            json.dump(asdict(self.settings), out)

    def drop_settings(self) -> None:
        """No listener for the next supervisor (`serve --stop`, `daemon stop`)."""
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.state_dir / SETTINGS_FILE)

    async def restore(self) -> None:
        """Listen as the previous supervisor did, if it did; a failure is logged only."""
        try:
            saved = read_state_json(str(self.state_dir / SETTINGS_FILE))
            if saved is None:
                return
            settings = ServeSettings.of(
                {**saved, "allow_host": saved["allow_hosts"], "allow_remote": True}
            )
        except (ValueError, KeyError, TypeError, AgentError) as exc:  # StateFileCorrupt too
            log.warning("not listening as the previous supervisor did: %s", exc)
            return
        try:
            await self.open(settings)
        except AgentError as exc:
            log.warning("could not listen again on %s:%d: %s", settings.host, settings.port, exc)

    async def open(self, settings: ServeSettings) -> None:
        # Imported on the first serve: a supervisor that never listens never loads them.
        import uvicorn

        from agentcli.http_guard import bind_tcp, load_token
        from procler.dashboard.pages import HOME
        from procler.supervisor.api.access import Access
        from procler.supervisor.api.head_deadline import HeaderDeadline
        from procler.supervisor.api.rest_resources import MCP_ROUTE, OPENAPI_ROUTE
        from procler.supervisor.api.rest_routes import RestApi
        from procler.supervisor.api.security import Policy, secured

        assert self.api is not None, "main gives the listener its app before any command"
        token_file = self.state_dir / TOKEN_FILE
        token = load_token(token_file, "procler serve")
        sock = bind_tcp(settings.host, settings.port, PortInUse)
        port = sock.getsockname()[1]
        policy = Policy(
            port,
            token,
            bind_host=settings.host,
            extra_hosts=settings.allow_hosts,
            read_only=settings.read_only,
            dashboard=settings.dashboard,
        )
        access = Access(settings.read_only)
        mcp = None
        if settings.mcp:
            # The SDK takes seconds to import: not on the loop, which keeps answering.
            mcp_http = await asyncio.to_thread(
                importlib.import_module, "procler.supervisor.api.mcp_http"
            )
            mcp = await self.stack.enter_async_context(mcp_http.mcp_app(self.api, access))
        rest = RestApi(self.api, access, mcp)
        self.layer = secured(rest, policy, rest.permits)
        config = uvicorn.Config(
            self.layer,
            http=HeaderDeadline,
            log_config=None,
            lifespan="off",
            access_log=False,
            proxy_headers=False,
            server_header=False,
            timeout_keep_alive=KEEP_ALIVE,
            limit_concurrency=MAX_REQUESTS,
            timeout_graceful_shutdown=SHUTDOWN_GRACE,
        )
        config.load()
        server = uvicorn.Server(config)
        server.lifespan = config.lifespan_class(config)  # startup() expects it
        await server.startup(sockets=[sock])
        self.server, self.settings = server, replace(settings, port=port)
        shown = f"[{settings.host}]" if ":" in settings.host else settings.host
        url = f"http://{shown}:{port}"
        self.about = {
            "listening": True,
            "url": url,
            "host": settings.host,
            "port": port,
            "read_only": settings.read_only,
            "allowed_hosts": sorted(policy.hosts()),
            "token_file": str(token_file),
            "token_allows": READ_ONLY if settings.read_only else READ_WRITE,
            # a request that works as it is (the token read from its file, never shown)
            "example": f'curl -H "Authorization: Bearer $(cat {token_file})" {url}/v1/processes',
            "openapi": url + OPENAPI_ROUTE,
            "mcp": url + MCP_ROUTE if settings.mcp else None,
            "dashboard": url + HOME if settings.dashboard else None,
        }
        log.info("listening on %s (read-only: %s)", url, settings.read_only)

    async def close(self) -> None:
        server, self.server, self.settings = self.server, None, None
        self.about = {"listening": False}
        if server is not None:
            await server.shutdown()
        await self.stack.aclose()
