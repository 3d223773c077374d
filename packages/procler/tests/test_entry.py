"""The console entry against supervisors that decline its argv offer."""

from __future__ import annotations

import json
import os
import pty
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from procler.entry import CAPABILITIES, explicit_config

PROCLER = str(Path(sys.executable).parent / "procler")
FULL_CLI = [sys.executable, "-c", "from procler.cli import main; main()"]
# The entry, saying on stderr which modules of procler it loaded (at exit: it leaves by
# os._exit, after the exit functions).
ENTRY_LOADS = [
    sys.executable,
    "-c",
    "import atexit, sys\n"
    "atexit.register(lambda: print(sorted(m for m in sys.modules if m.startswith('procler')),"
    " file=sys.stderr))\n"
    "from procler.entry import main; main()",
]
ENVELOPE = b'{"schema_version":"1.0","success":true,"data":{"processes":[]}}'


class OlderSupervisor:
    """A socket answering like a supervisor without the argv route (400 there)."""

    def __init__(self, path: Path) -> None:
        self.paths: list[str] = []
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(str(path))
        self.sock.listen(4)
        self.sock.settimeout(30)
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self) -> None:
        for _ in range(2):  # the offer, then the full CLI's request
            conn, _ = self.sock.accept()
            with conn:
                conn.settimeout(30)
                data = b""
                while b"\r\n\r\n" not in data:
                    data += conn.recv(65536)
                head, _, body = data.partition(b"\r\n\r\n")
                length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
                while len(body) < length:
                    body += conn.recv(65536)
                path = head.split(b" ")[1].decode()
                self.paths.append(path)
                status, code = (
                    (b"200 OK", b"0")
                    if path.startswith("/v1/commands/")
                    else (
                        b"400 Bad Request",
                        b"2",
                    )
                )
                conn.sendall(
                    b"HTTP/1.1 "
                    + status
                    + b"\r\ncontent-length: %d\r\nx-exit-code: " % len(ENVELOPE)
                    + code
                    + b"\r\n\r\n"
                    + ENVELOPE
                )

    def close(self) -> None:
        self.thread.join(timeout=30)
        self.sock.close()


def test_a_supervisor_without_the_argv_route_is_served_by_the_full_cli(tmp_path: Path) -> None:
    (tmp_path / ".procler" / "state").mkdir(parents=True)
    (tmp_path / ".procler" / "config.yaml").write_text("version: 1\nprocesses: {}\n")
    server = OlderSupervisor(tmp_path / ".procler" / "state" / "supervisor.sock")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROCLER_")}
    try:
        proc = subprocess.run(
            [PROCLER, "status"], cwd=tmp_path, capture_output=True, timeout=60, env=env
        )
    finally:
        server.close()
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, ENVELOPE + b"\n", b"")
    assert server.paths == ["/v1/argv", "/v1/commands/status"]


def test_no_config_runs_the_full_cli(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROCLER_")}
    proc = subprocess.run(
        [PROCLER, "status"], cwd=tmp_path, capture_output=True, text=True, timeout=60, env=env
    )
    assert (proc.returncode, json.loads(proc.stdout)["error_code"]) == (2, "CONFIG_NOT_FOUND")


def test_explicit_config_is_read_as_the_parser_reads_it() -> None:
    assert explicit_config(["status", "--config", "a.yaml"]) == ["a.yaml"]
    assert explicit_config(["--config=b.yaml", "status"]) == ["b.yaml"]
    assert explicit_config(["--config", "a.yaml", "--config=b.yaml", "status"]) == [
        "a.yaml",
        "b.yaml",
    ]
    assert explicit_config(["run", "x", "--", "tool", "--config", "c.yaml"]) == []
    assert explicit_config(["status", "--config"]) == []


def test_procler_namespaces_reads_as_up_n(monkeypatch: pytest.MonkeyPatch) -> None:
    from procler.entry import with_namespaces

    monkeypatch.setenv("PROCLER_NAMESPACES", "web,jobs")
    assert with_namespaces(["up", "--wait"]) == ["up", "--namespace", "web,jobs", "--wait"]
    assert with_namespaces(["--config", "c.yaml", "up"]) == [
        "--config",
        "c.yaml",
        "up",
        "--namespace",
        "web,jobs",
    ]
    assert with_namespaces(["up", "-n", "data"]) == ["up", "-n", "data"]
    assert with_namespaces(["logs", "up"]) == ["logs", "up"]
    monkeypatch.delenv("PROCLER_NAMESPACES")
    assert with_namespaces(["up"]) == ["up"]


def test_capabilities_is_the_full_clis_answer_without_loading_the_declarations() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROCLER_")}
    full = subprocess.run([*FULL_CLI, "capabilities"], capture_output=True, timeout=60, env=env)
    entry = subprocess.run(
        [*ENTRY_LOADS, "capabilities"], capture_output=True, text=True, timeout=60, env=env
    )
    assert (full.returncode, full.stderr) == (0, b"")
    assert Path(CAPABILITIES).read_bytes() == full.stdout, "stale: run `make docs`"
    assert (entry.returncode, entry.stdout.encode()) == (0, full.stdout)
    assert entry.stderr == "['procler', 'procler.entry', 'procler.project']\n"
    # anything more than `capabilities` alone is the full CLI's
    one = subprocess.run([*ENTRY_LOADS, "capabilities", "status"], capture_output=True, env=env)
    assert one.returncode == 0 and b"procler.declarations" in one.stderr


def at_a_terminal(argv: list[str]) -> bytes:
    """What argv prints when its stdout is a terminal."""
    leader, follower = pty.openpty()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROCLER_")}
    proc = subprocess.Popen(argv, stdout=follower, stderr=subprocess.DEVNULL, env=env)
    os.close(follower)
    out = b""
    try:
        while chunk := os.read(leader, 65536):
            out += chunk
    except OSError:  # EIO: the terminal's last writer is gone
        pass
    finally:
        os.close(leader)
    assert proc.wait(timeout=60) == 0
    return out


def test_capabilities_at_a_terminal_is_indented_as_the_full_cli_does() -> None:
    indented = at_a_terminal([PROCLER, "capabilities"])
    assert indented.startswith(b'{\r\n  "schema_version": "1.0",')
    assert indented == at_a_terminal([*FULL_CLI, "capabilities"])
