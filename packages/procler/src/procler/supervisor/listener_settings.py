"""What `procler serve` asks of the supervisor's TCP listener: host, port, read-only, the
Host names allowed, MCP and the dashboard. Kept in the state directory while it listens,
so the next supervisor listens the same way."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from agentcli.errors import UsageError
from agentcli.http_guard import is_loopback

DEFAULT_PORT = 7765


@dataclass(frozen=True)
class ServeSettings:
    host: str
    port: int
    read_only: bool
    allow_hosts: tuple[str, ...]
    mcp: bool
    dashboard: bool = False

    @classmethod
    def of(cls, values: dict[str, Any]) -> ServeSettings:
        """The settings `serve` asks for; a non-loopback host needs allow_remote."""
        host = str(values.get("host") or "127.0.0.1")
        port = values.get("port")
        port = DEFAULT_PORT if port is None else int(port)
        if not 0 <= port <= 65535:
            raise UsageError(f"--port must be 0 to 65535, got {port}")
        if not is_loopback(host) and not values.get("allow_remote"):
            raise UsageError(
                f"{host} is not a loopback address: other machines could reach the API",
                suggestion="keep the default 127.0.0.1, or pass --allow-remote to mean it",
            )
        hosts = tuple(h.strip().lower() for h in values.get("allow_host") or ())
        if any(not h or "/" in h or " " in h for h in hosts):
            raise UsageError(f"--allow-host takes a host name or address, got {hosts}")
        return cls(
            host,
            port,
            bool(values.get("read_only")),
            hosts,
            bool(values.get("mcp")),
            bool(values.get("dashboard")),
        )

    @classmethod
    def with_dashboard(cls, current: ServeSettings | None, port: int | None) -> ServeSettings:
        """`procler dashboard`: the settings in force (a remote host was allowed already)
        with the dashboard, on the port asked."""
        asked: dict[str, Any] = asdict(current) if current is not None else {}
        asked["allow_host"] = asked.pop("allow_hosts", ())
        asked["allow_remote"] = current is not None
        return cls.of({**asked, "port": port, "dashboard": True})
