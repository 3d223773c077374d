"""Slowloris: clients that open connections and dribble their headers, as many as they
like, never keep an authenticated client from being served."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest
from procler_testkit.api_client import Listener, serve
from procler_testkit.harness import PY, Project

CONFIG = f"""
version: 1
processes:
  api:
    command: {PY} -c "import time; time.sleep(600)"
"""
SLOW = 100  # connections the slow client keeps open, opening a new one for each closed


@pytest.fixture
def listener(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Project, Listener]]:
    made = Project(tmp_path_factory.mktemp("slow") / "proj", CONFIG)
    try:
        made.ok("start", "api")
        yield made, serve(made)
    finally:
        made.close()


class Slowloris:
    """SLOW connections that each send a request line, then a header byte every 200 ms;
    a connection the server closes is opened again at once."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.done = threading.Event()
        self.opened = 0
        self.thread = threading.Thread(target=self.run, daemon=True)

    def connect(self) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        sock.sendall(f"GET /v1/processes HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n".encode())
        sock.setblocking(False)
        self.opened += 1
        return sock

    def run(self) -> None:
        socks = [self.connect() for _ in range(SLOW)]
        while not self.done.wait(0.2):
            for i, sock in enumerate(socks):
                try:
                    sock.send(b"X")
                    if sock.recv(1, socket.MSG_PEEK) == b"":
                        raise ConnectionResetError
                except BlockingIOError:
                    continue  # nothing to read: still open
                except OSError:
                    sock.close()
                    socks[i] = self.connect()
        for sock in socks:
            sock.close()


def test_a_hundred_slow_connections_do_not_keep_a_client_from_being_served(
    listener: tuple[Project, Listener],
) -> None:
    project, api = listener
    slow = Slowloris(api.port)
    slow.thread.start()
    try:
        time.sleep(1.0)  # let the slow connections take their places first
        answers = [api.exchange("GET", "/v1/processes/api")[0] for _ in range(24)]
    finally:
        slow.done.set()
        slow.thread.join(timeout=30)
    assert answers == [200] * 24
    assert project.ok("status", "api")["status"] == "running"
