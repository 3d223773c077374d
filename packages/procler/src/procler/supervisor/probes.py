"""One probe per health-check kind: each returns (ok, short output) within its timeout."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import select
import socket
from typing import Any
from urllib.parse import urlsplit

from procler.config.model import HttpProbe, TcpProbe

OUTPUT_LIMIT = 200  # characters of probe output kept in status


def short(text: str) -> str:
    text = text.strip()
    return text if len(text) <= OUTPUT_LIMIT else text[: OUTPUT_LIMIT - 1] + "…"


async def tcp_probe(probe: TcpProbe, timeout: float) -> tuple[bool, str]:
    """A connect and a close on a bare socket: no name lookup for an address, no stream
    objects, and on loopback no wait at all (a run's readiness is probed every few ms,
    so a probe costs tens of microseconds). A name is looked up, its addresses tried in
    order."""
    where = f"tcp {probe.host}:{probe.port}"
    failure: OSError | None = None
    try:
        async with asyncio.timeout(timeout):
            for family, address in await _addresses(probe.host, probe.port):
                try:
                    await _connect(family, address)
                except OSError as exc:
                    failure = exc
                    continue
                return True, f"{where}: connected"
    except OSError as exc:  # TimeoutError included
        failure = exc
    return False, short(f"{where}: {str(failure or '') or 'timed out'}")


async def _connect(family: int, address: Any) -> None:
    """Raise OSError unless address takes the connection. On loopback the handshake (or
    the refusal) happens inside connect() itself: its outcome is read at once, and only
    a connect still in progress is waited for."""
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setblocking(False)
        code = sock.connect_ex(address)
        if code == errno.EINPROGRESS:
            settled = select.poll()
            settled.register(sock, select.POLLOUT)
            if not settled.poll(0):
                await _writable(sock)
            code = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
        if code:
            raise OSError(code, f"Connect call failed {address}")


async def _writable(sock: socket.socket) -> None:
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()

    def ready() -> None:
        if not done.done():
            done.set_result(None)

    loop.add_writer(sock, ready)
    try:
        await done
    finally:
        loop.remove_writer(sock)


async def _addresses(host: str, port: int) -> list[tuple[int, Any]]:
    """(family, address) to connect to: an IP address as it is, a name's from a lookup."""
    for family in (socket.AF_INET, socket.AF_INET6):
        with contextlib.suppress(OSError):
            socket.inet_pton(family, host.strip("[]"))
            return [(family, (host.strip("[]"), port))]
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [(info[0], info[4]) for info in infos]


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
