"""The tcp probe on loopback: an address connected to as it is, a name looked up."""

from __future__ import annotations

import asyncio
import socket

from procler.config.model import TcpProbe
from procler.supervisor.probes import tcp_probe


def _listening() -> socket.socket:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    return server


def test_tcp_probe_connects_to_a_listening_port_by_address_and_by_name() -> None:
    with _listening() as server:
        port = server.getsockname()[1]
        by_address = asyncio.run(tcp_probe(TcpProbe(port=port, host="127.0.0.1"), 1.0))
        by_name = asyncio.run(tcp_probe(TcpProbe(port=port, host="localhost"), 1.0))
    assert by_address == (True, f"tcp 127.0.0.1:{port}: connected")
    assert by_name == (True, f"tcp localhost:{port}: connected")


def test_tcp_probe_reports_a_refused_connect() -> None:
    with _listening() as server:
        port = server.getsockname()[1]
    ok, output = asyncio.run(tcp_probe(TcpProbe(port=port, host="127.0.0.1"), 1.0))
    assert (ok, output) == (
        False,
        f"tcp 127.0.0.1:{port}: [Errno 111] Connect call failed ('127.0.0.1', {port})",
    )
