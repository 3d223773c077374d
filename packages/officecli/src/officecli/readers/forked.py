"""One call run in a forked child process while this one works on, its answer read back.

For work that holds the GIL (reading a workbook), a thread would only take turns;
a forked child runs on another core. The child's answer comes back as bytes through a
pipe; a typed error it raises (an AgentError) comes back pickled and is raised here as it
would have been. Whatever else goes wrong (no fork on this system, other threads running,
the fork refused, the child killed, silent past the deadline, or failing with anything but
a typed error) leaves `answer()` returning None: the caller then does the work itself, so
a result or an error never depends on the child. `close()` kills and reaps the child if
it is still there: none is left behind, whatever happens here.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable

from agentcli.errors import AgentError

WAIT_SECONDS = 300.0  # longest wait for a child's answer; then the caller reads itself
CHUNK = 1 << 20
ANSWER, ERROR = b"A", b"E"  # first byte of the child's message


class ForkedCall:
    """`work()` run in a forked child; `answer()` gives its bytes or raises its error."""

    def __init__(self, work: Callable[[], bytes]) -> None:
        self.pid = 0  # 0: no child (not started, or already reaped)
        self.status = -1  # the child's exit status once reaped
        self.fd = -1
        if not hasattr(os, "fork") or _threads() > 1:
            return  # forking a process with other threads running can deadlock the child
        read_fd, write_fd = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            os.close(read_fd)
            os.close(write_fd)
            return
        if pid == 0:
            _child(work, read_fd, write_fd)  # never returns
        os.close(write_fd)
        self.pid, self.fd = pid, read_fd

    def answer(self, wait: float = WAIT_SECONDS) -> bytes | None:
        """The child's bytes, its typed error raised, or None when there is no answer."""
        if not self.pid:
            return None
        message = self._read(time.monotonic() + wait)
        if message is None:
            self.close()  # silent past the deadline: killed
            return None
        self._reap()  # the end of its output is its exit: this wait is short
        if self.status != 0:
            return None
        if message[:1] == ERROR:
            import pickle  # errors only

            error = pickle.loads(message[1:])  # our own child wrote it
            if isinstance(error, AgentError):
                raise error
            return None
        return message[1:] if message[:1] == ANSWER else None

    def _read(self, deadline: float) -> bytes | None:
        """Everything the child writes, up to its end (EOF); None past the deadline."""
        import select

        poller = select.poll()
        poller.register(self.fd, select.POLLIN)
        chunks: list[bytes] = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            if not poller.poll(left * 1000):
                continue
            chunk = os.read(self.fd, CHUNK)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)

    def _reap(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
        if self.pid:  # forgotten only once reaped: an interrupted wait is done again
            self.status = os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])
            self.pid = 0

    def close(self) -> None:
        """Kill the child if it is still there, and reap it (no zombie): a killed
        process is reaped at once, so this wait is short."""
        if self.pid:
            os.kill(self.pid, signal.SIGKILL)  # an exited child is a zombie until reaped
        self._reap()


def _threads() -> int:
    """Threads of this process: Python's, and on Linux the system's too (a library's own
    threads; Python 3.12 warns on a fork with any, and the warning can be an error)."""
    try:
        system = len(os.listdir("/proc/self/task"))
    except OSError:
        system = 0
    return max(threading.active_count(), system)


def _child(work: Callable[[], bytes], read_fd: int, fd: int) -> None:
    """The child's whole life: do the work, write the message, exit without running any
    of the parent's cleanup (os._exit); an unexpected error exits 1, silently (the parent
    then does the work and reports it the usual way)."""
    code = 1
    try:
        os.close(read_fd)
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # the parent handles interruption
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        try:
            message = ANSWER + work()
        except AgentError as exc:
            import pickle

            message = ERROR + pickle.dumps(exc)
        view = memoryview(message)
        while view:
            view = view[os.write(fd, view) :]
        code = 0
    finally:
        os._exit(code)
