"""Run the real `procler` console script against a temporary project."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

PROCLER = str(Path(sys.executable).parent / "procler")
PY = sys.executable
# flaky's first run exits 3 after 0.5 s (restarted after a 0.1 s backoff), the next stays up;
# probed is healthy while its file exists (1 s), then unhealthy (`history`, its views).
HISTORY = f"""
version: 1
processes:
  flaky:
    command: {PY} -c "import os, sys, time; first = not os.path.exists('ran'); open('ran', 'w').close(); time.sleep(0.5); sys.exit(3) if first else time.sleep(600)"
    restart: {{policy: on-failure, backoff: {{initial: 0.1s}}}}
  probed:
    command: {PY} -c "import os, time; open('ok', 'w').close(); time.sleep(1); os.remove('ok'); time.sleep(600)"
    healthcheck: {{test: "test -e ok", interval: 0.2s, retries: 1}}
"""


class Project:
    def __init__(self, root: Path, config: str) -> None:
        self.root = root
        (root / ".procler").mkdir(parents=True, exist_ok=True)
        (root / ".procler" / "config.yaml").write_text(config)

    def _call(self, args: tuple[str, ...], timeout: float) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PROCLER_")}
        return subprocess.run(
            [PROCLER, *args],
            cwd=self.root,
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
        )

    def run(self, *args: str, timeout: float = 60) -> tuple[int, dict[str, Any]]:
        proc = self._call(args, timeout)
        assert proc.stdout.count("\n") == 1, proc.stdout + proc.stderr
        return proc.returncode, json.loads(proc.stdout)

    def events(self, *args: str) -> list[dict[str, Any]]:
        """`procler events` (the buffered ones, then it ends): its NDJSON messages."""
        proc = self._call(("events", *args), 60)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        return [json.loads(line) for line in proc.stdout.splitlines()]

    def ok(self, *args: str) -> Any:
        code, env = self.run(*args)
        assert code == 0, env
        return env["data"]

    def supervisor_pid(self) -> int:
        return int((self.root / ".procler" / "state" / "supervisor.lock").read_text())

    def marked_pids(self) -> list[int]:
        """Every live process started for this project (they carry PROCLER_PROJECT_ROOT)."""
        marker = f"PROCLER_PROJECT_ROOT={self.root}".encode()
        found = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                env = Path(f"/proc/{entry}/environ").read_bytes().split(b"\0")
                state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if marker in env and state != "Z":
                found.append(int(entry))
        return found

    def close(self) -> None:
        """Stop the supervisor; a supervisor that outlives `daemon stop` is killed (never
        left behind, spinning) and fails the test; every process of the project goes too."""
        lock = self.root / ".procler" / "state" / "supervisor.lock"
        supervisor = int(lock.read_text()) if lock.exists() and lock.read_text().strip() else 0
        try:
            self.run("daemon", "stop", timeout=60)
        finally:
            survived = supervisor if supervisor and not gone(supervisor, EXIT_WAIT) else 0
            for pid in self.marked_pids() + ([survived] if survived else []):
                with contextlib.suppress(ProcessLookupError):  # it ended meanwhile
                    os.kill(pid, signal.SIGKILL)
        assert not survived, f"the supervisor (pid {survived}) outlived daemon stop"


EXIT_WAIT = 10.0  # seconds a supervisor may take to exit once it answered daemon stop


def gone(pid: int, within: float) -> bool:
    """The process ended (or is a zombie) within `within` seconds."""
    deadline = time.monotonic() + within
    while alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def alive(pid: int) -> bool:
    """The process exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def supervisors_of(root: Path, module: str = "procler.supervisor_entry") -> list[int]:
    """Pids of supervisor processes (or of `module`, e.g. the sentinel) serving this root."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            argv = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if module.encode() in argv and str(root).encode() in argv and alive(int(entry)):
            found.append(int(entry))
    return found


def sockets_of(pid: int) -> int:
    """Sockets a process holds open (listening and connected): a new request shows here."""
    count = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            count += os.readlink(fd).startswith("socket:")
        except OSError:
            continue
    return count


def wait_for(pred: Callable[[], object], timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.05)
    return bool(pred())


def sentinel_running(root: str) -> bool:
    """Whether the sentinel of the project at root is still alive (it sweeps on its way out)."""
    wanted = ["procler.supervisor.sentinel", root]  # then its lock's fd, if it was given one
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                argv = fh.read().decode(errors="replace").split("\0")
        except OSError:
            continue
        if any(argv[i : i + 2] == wanted for i in range(len(argv) - 1)):
            return True
    return False
