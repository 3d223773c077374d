"""One probe per health-check kind: each returns (ok, short output) within its timeout."""

from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import urlsplit

from procler.config.model import HttpProbe, TcpProbe

OUTPUT_LIMIT = 200  # characters of probe output kept in status


def short(text: str) -> str:
    text = text.strip()
    return text if len(text) <= OUTPUT_LIMIT else text[: OUTPUT_LIMIT - 1] + "…"


async def tcp_probe(probe: TcpProbe, timeout: float) -> tuple[bool, str]:
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(probe.host, probe.port), timeout)
    except (OSError, TimeoutError) as exc:
        return False, short(f"tcp {probe.host}:{probe.port}: {exc or 'timed out'}")
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
    return True, f"tcp {probe.host}:{probe.port}: connected"


async def http_probe(probe: HttpProbe, timeout: float) -> tuple[bool, str]:
    """A minimal HTTP/1.1 request; healthy when the status is within expect_status."""
    parts = urlsplit(probe.url)
    host = parts.hostname or "127.0.0.1"
    port = parts.port or (443 if parts.scheme == "https" else 80)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    head = f"{probe.method} {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nConnection: close\r\n"
    head += "".join(f"{k}: {v}\r\n" for k, v in probe.headers) + "\r\n"
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
        try:
            writer.write(head.encode())
            line = await asyncio.wait_for(reader.readline(), timeout)
        finally:
            writer.close()
    except (OSError, TimeoutError) as exc:
        return False, short(f"{probe.method} {probe.url}: {exc or 'timed out'}")
    fields = line.decode("latin-1").split()
    if len(fields) < 2 or not fields[1].isdigit():
        return False, short(f"{probe.method} {probe.url}: not an HTTP answer: {line!r}")
    status = int(fields[1])
    low, high = probe.expect_status
    return low <= status <= high, f"{probe.method} {probe.url}: {status}"
