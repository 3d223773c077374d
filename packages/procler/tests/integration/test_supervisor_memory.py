"""The supervisor's memory under many readers: log answers are pages read in a few child
processes at a time, and what 5,000 event subscribers held goes back once they left. The
supervisor runs capped (RLIMIT_AS, inherited from the command that starts it), so a
regression fails here instead of exhausting the machine; the bounds are asserted on its
peak resident memory (VmHWM), never on timing."""

from __future__ import annotations

import os
import resource
import socket
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import httpx2
import pytest
from procler_testkit.api_client import Listener
from procler_testkit.config_helpers import capped
from procler_testkit.harness import Project, wait_for

from procler.logs.query import MAX_ANSWER_BYTES
from procler.logs.store import LogStore
from procler.project import at_socket

CONFIG = "version: 1\nprocesses:\n  app:\n    command: sleep 600\n"
CAP_MIB = 1024  # the supervisor's address space: far above what it needs, far below a balloon
READERS = 16


def memory(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM (peak) of a process, in KiB."""
    fields = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
    )
    return {key: int(fields[key].split()[0]) for key in ("VmRSS", "VmHWM")}


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Project]:
    made = Project(tmp_path / "proj", CONFIG)
    # 2,000 lines of 8 KiB (16 MB): every read of them all is the largest page
    logs = made.root / ".procler" / "state" / "logs"
    logs.mkdir(parents=True, mode=0o700)
    with LogStore(logs, max_size=1 << 30) as store:
        for start in range(0, 2000, 500):
            texts = [f"{i:05d} " + "y" * 8000 for i in range(start, start + 500)]
            store.append_many("app", start / 1000, "stdout", 1, texts)
    # the supervisor is started by a capped command, and inherits its cap
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROCLER_")}
    env["MALLOC_ARENA_MAX"] = "2"  # each thread's arena reserves 64 MiB of address space
    started = subprocess.run(
        [*capped(CAP_MIB), "serve", "--port", "0", "--mcp"],
        cwd=made.root, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert started.returncode == 0, started.stdout + started.stderr
    try:
        yield made
    finally:
        made.close()


def listener(project: Project) -> Listener:
    about = project.ok("serve", "--port", "0", "--mcp")["already_listening"] and project.ok(
        "serve", "--port", "0", "--mcp"
    )
    return Listener(about["port"], Path(about["token_file"]).read_text().strip(), about)


Answer = TypeVar("Answer")


def together(calls: list[Callable[[], Answer]]) -> list[Answer]:
    """Each call in a thread of its own, all at once; their results."""
    results: dict[int, Answer] = {}

    def run(i: int) -> None:
        results[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert len(results) == len(calls), "a call failed or did not end within 300 s"
    return [results[i] for i in range(len(calls))]


def first_event(sock: socket.socket) -> bytes:
    """What a subscriber received up to its first event (the head comes first, alone)."""
    sock.settimeout(60)
    got = b""
    while b"\n\n" not in got.partition(b"\r\n\r\n")[2]:
        chunk = sock.recv(65536)
        assert chunk, got
        got += chunk
    return got.replace(b'":"', b'": "')


def test_sixteen_readers_of_the_largest_page_on_rest_and_mcp(project: Project) -> None:
    api = listener(project)
    pid = project.supervisor_pid()
    path = "/v1/processes/app/logs?tail=1000000&run=all"
    assert api.exchange("GET", path)[0] == 200  # everything loaded once
    base = memory(pid)["VmRSS"]

    def rest() -> tuple[int, int]:
        status, _h, body = api.exchange("GET", path)
        return status, len(body)

    def mcp() -> int:
        call = {"name": "procler_logs", "arguments": {"name": "app", "tail": 1000000, "run": "all"}}
        message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call}
        headers = {
            "Authorization": f"Bearer {api.token}",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": "2025-06-18",
        }
        answer = httpx2.post(api.about["mcp"], json=message, headers=headers, timeout=300)
        return len(answer.json()["result"]["structuredContent"]["lines"])

    pages = together([rest] * READERS)
    assert all(status == 200 and size <= MAX_ANSWER_BYTES * 1.1 for status, size in pages)
    lines = together([mcp] * READERS)
    assert lines == [lines[0]] * READERS and 0 < lines[0] < 2000  # a page each
    # 16 answers of 4 MiB held at once would be far more; four child answers at a time
    assert memory(pid)["VmHWM"] - base < 192 * 1024, (base, memory(pid))


def test_what_five_thousand_event_subscribers_held_goes_back(project: Project) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 6000:
        pytest.skip("5,000 connections need more file descriptors than this user may open")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 8192)), hard))
    pid = project.supervisor_pid()
    sock_path = project.root / ".procler" / "state" / "supervisor.sock"
    before = memory(pid)["VmRSS"]
    socks: list[socket.socket] = []
    try:
        for _ in range(5000):
            sock = socket.socket(socket.AF_UNIX)
            socks.append(sock)
            at_socket(str(sock_path), sock.connect)  # a deep temp dir: past sun_path
            sock.sendall(b"GET /v1/events HTTP/1.1\r\nHost: procler\r\n\r\n")
        for sock in socks:
            assert b'"type": "snapshot"' in first_event(sock)
        held = memory(pid)["VmRSS"]
    finally:
        for sock in socks:
            sock.close()
    assert wait_for(lambda: memory(pid)["VmRSS"] - before < 40 * 1024, timeout=30), (
        before,
        held,
        memory(pid),
    )
