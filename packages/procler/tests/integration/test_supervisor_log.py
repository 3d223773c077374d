"""supervisor.log under clients anyone on the machine can be: refused requests are logged
rate-limited and clipped, a path cannot forge a line, a WebSocket ticket is never written,
and the file rotates."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from procler_testkit.api_client import Listener, serve
from procler_testkit.harness import PY, Project, wait_for
from websockets.sync.client import connect

CONFIG = f"""
version: 1
processes:
  api:
    command: {PY} -c "import time; time.sleep(600)"
"""
FORGED = "2030-01-01 00:00:00,000 INFO procler.supervisor: api: running -> stopped"


@pytest.fixture
def listening(tmp_path: Path) -> Iterator[tuple[Project, Listener]]:
    made = Project(tmp_path / "proj", CONFIG)
    try:
        made.ok("start", "api")
        yield made, serve(made)
    finally:
        made.close()


def logged(project: Project) -> str:
    state = project.root / ".procler" / "state"
    return "".join(p.read_text() for p in sorted(state.glob("supervisor.log*")))


def send_raw(port: int, head: bytes) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(head)
        while sock.recv(65536):
            pass


def test_refused_requests_cannot_fill_the_disk_or_forge_lines(
    listening: tuple[Project, Listener],
) -> None:
    project, api = listening
    before = len(logged(project))
    long_path = "/v1/" + "a" * 30_000
    for i in range(500):  # 15 MB of paths; the Host alone refuses each
        path = long_path if i % 2 else f"/x%0A{FORGED.replace(' ', '%20')}%0A"
        head = f"GET {path} HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n"
        send_raw(api.port, head.encode())
    text = logged(project)
    assert len(text) - before < 64 * 1024  # 20 lines a minute, each path clipped
    assert [line for line in text.splitlines() if FORGED in line and "refused" not in line] == []
    lines = project.ok("daemon", "logs", "--tail", "1000")["lines"]
    assert not any(line.startswith(FORGED) for line in lines)
    refusals = [line for line in lines if "refused GET" in line]
    assert len(refusals) == 20 and all(len(line) < 400 for line in refusals)


def test_a_websocket_ticket_is_never_written(listening: tuple[Project, Listener]) -> None:
    project, api = listening
    ticket = api.call("POST", "/v1/ws-ticket")[2]["data"]["ticket"]
    url = f"ws://127.0.0.1:{api.port}/v1/ws?ticket={ticket}&once"
    with connect(url) as ws:
        assert '"type": "snapshot"' in str(ws.recv(timeout=30)).replace('":"', '": "')
    assert wait_for(lambda: "[accepted]" in logged(project))  # uvicorn's line about it
    assert ticket not in logged(project)
