"""A command run in a pseudo-terminal that is its controlling terminal, as at a person's
keyboard: its stdout is a terminal (colour, tables), and Ctrl-C typed into it reaches the
command as SIGINT."""

from __future__ import annotations

import os
import pty
import select
import signal
import time
from pathlib import Path


class Terminal:
    def __init__(self, argv: list[str], cwd: Path, env: dict[str, str]) -> None:
        pid, fd = pty.fork()  # the child: a new session whose controlling terminal is the pty
        if pid == 0:  # pragma: no cover - the child execs at once
            os.chdir(cwd)
            os.execve(argv[0], argv, env)
        self.pid = pid
        self.fd = fd
        self.seen = b""
        self.code: int | None = None

    @property
    def text(self) -> str:
        return self.seen.decode("utf-8", "replace").replace("\r\n", "\n")

    def read_until(self, wanted: str, timeout: float = 30.0) -> str:
        """Everything shown so far, once it holds `wanted` (AssertionError at the timeout)."""
        deadline = time.monotonic() + timeout
        while wanted not in self.text:
            left = deadline - time.monotonic()
            assert left > 0, f"{wanted!r} not shown within {timeout}s:\n{self.text}"
            if self._read(left) == "end":
                assert wanted in self.text, f"{wanted!r} never shown:\n{self.text}"
        return self.text

    def press(self, keys: bytes) -> None:
        os.write(self.fd, keys)

    def wait(self, timeout: float = 30.0) -> int:
        """The exit code, once the command ended (its output read to the end)."""
        deadline = time.monotonic() + timeout
        while self._read(max(0.0, deadline - time.monotonic())) == "data":
            pass
        while self.code is None:
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                self.code = os.waitstatus_to_exitcode(status)
                break
            assert time.monotonic() < deadline, f"still running after {timeout}s:\n{self.text}"
            time.sleep(0.05)
        return self.code

    def output(self, timeout: float = 60.0) -> tuple[int, str]:
        """The exit code and everything shown, once the command ended."""
        code = self.wait(timeout)
        self.close()
        return code, self.text

    def close(self) -> None:
        if self.code is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except ChildProcessError:
                pass
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def _read(self, timeout: float) -> str:
        """Read what is there, waiting up to timeout: data, timeout or end (of output)."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return "timeout"
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: every process holding the terminal is gone
            return "end"
        self.seen += data
        return "data" if data else "end"
