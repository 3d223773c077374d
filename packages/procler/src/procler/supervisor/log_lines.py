"""The supervisor's own log (supervisor.log): each line written soon after it was logged.

Every status change is logged, and a line formatted and written at once cost about a
tenth of a millisecond of the loop, in the middle of a start or a stop, several times a
step (a third of a recipe step's own time). INFO lines therefore wait up to WRITE_WITHIN
and are written together, by the loop, usually while the supervisor waits on its
processes. A warning or an error writes itself and what waits at once; so does a line
logged with no loop running in its thread, and closing (logging.shutdown at exit). A
kill -9 can lose the last WRITE_WITHIN of INFO lines, as the output log can lose its own.

Every line is one record, whatever it quotes: control characters in a message are written
as escapes (`\n`, `\x1b`), so a `%0A` in a requested path cannot forge a line that
`procler daemon logs` would hand over as real; a traceback's lines are indented under its
record; a `ticket=` or `token=` value is never written. The file rotates like a process's
log: past MAX_BYTES it becomes supervisor.log.1 (the older ones moving up, FILES in all).
Refusals that anyone who can connect may cause (`procler.refused`, uvicorn's own warnings)
pass a RateLimit, each said again at most BURST times a WINDOW.
"""

from __future__ import annotations

import asyncio
import logging
import logging.handlers
import os
import re
import time
from typing import IO

WRITE_WITHIN = 0.05  # seconds an INFO line may wait
BUFFERED = 10_000  # lines waiting at most: more are written at once
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
MAX_BYTES = 10 * 1024 * 1024  # as a process's log by default (logs.max_size)
FILES = 3  # supervisor.log, .1, .2
BURST, WINDOW = 20, 60.0  # refusals logged per window; the others are counted
CLIP = 200  # characters of a client's text (a path) quoted in a line

_ESCAPES = {c: f"\\x{c:02x}" for c in (*range(0x20), 0x7F, 0x85)} | {
    0x09: "\\t",
    0x0A: "\\n",
    0x0D: "\\r",
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}
_SECRET = re.compile(r"\b(ticket|token)=[^&\s\"'#]+")


def one_line(text: str) -> str:
    """text as part of one line of the log: no control character, no ticket or token."""
    return _SECRET.sub(r"\1=[hidden]", text).translate(_ESCAPES)


def clip(text: str, limit: int = CLIP) -> str:
    """At most `limit` characters of a client's text, saying how much more there was."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text) - limit} more)"


class OneLineFormatter(logging.Formatter):
    """FORMAT, every message on its line (one_line), a traceback's lines indented under it."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        record.message = one_line(record.message)
        return super().formatMessage(record)

    def formatException(self, ei: object) -> str:
        text = super().formatException(ei)  # type: ignore[arg-type]
        return "\n".join("  | " + one_line(line) for line in text.splitlines())

    def formatStack(self, stack_info: str) -> str:
        return "\n".join("  | " + one_line(line) for line in stack_info.splitlines())


class RateLimit(logging.Filter):
    """At most BURST records per WINDOW seconds; the next one let through says how many
    were left out."""

    def __init__(self, burst: int = BURST, window: float = WINDOW) -> None:
        super().__init__()
        self.burst, self.window = burst, window
        self.start, self.passed, self.dropped = 0.0, 0, 0

    def filter(self, record: logging.LogRecord) -> bool:
        now = time.monotonic()
        if now - self.start >= self.window:
            self.start, self.passed = now, 0
        if self.passed >= self.burst:
            self.dropped += 1
            return False
        self.passed += 1
        if self.dropped:
            record.msg = f"{record.msg} (and {self.dropped} like it not logged)"
            self.dropped = 0
        return True


class RotatingStream(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to `stream` (the supervisor's stderr: supervisor.log at `path`); past
    MAX_BYTES the file is renamed and a new one takes the stream's descriptor, so the
    interpreter's own writes to stderr follow it."""

    def __init__(self, stream: IO[str], path: str | None) -> None:
        super().__init__(stream)
        self.path = path

    def emit(self, record: logging.LogRecord) -> None:
        super().emit(record)
        if self.path is None:
            return
        try:
            if os.fstat(self.stream.fileno()).st_size > MAX_BYTES:
                self.rotate(self.path)
        except OSError:
            pass  # a log that cannot rotate goes on being written

    def rotate(self, path: str) -> None:
        from procler.project import open_private

        self.stream.flush()
        for older in range(FILES - 1, 1, -1):
            if os.path.exists(f"{path}.{older - 1}"):
                os.replace(f"{path}.{older - 1}", f"{path}.{older}")
        os.replace(path, f"{path}.1")
        fresh = open_private(path, os.O_WRONLY | os.O_APPEND)
        try:
            os.dup2(fresh, self.stream.fileno())
        finally:
            os.close(fresh)


class SoonHandler(logging.handlers.MemoryHandler):
    """A MemoryHandler whose lines are also written WRITE_WITHIN after the first one."""

    def __init__(self, target: logging.Handler) -> None:
        super().__init__(BUFFERED, logging.WARNING, target, flushOnClose=True)
        self._soon: asyncio.TimerHandle | None = None

    def emit(self, record: logging.LogRecord) -> None:
        super().emit(record)  # under the handler's lock; flushes a warning at once
        if not self.buffer or self._soon is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop in this thread: nothing would write it later
            self.flush()
            return
        self._soon = loop.call_later(WRITE_WITHIN, self.flush)

    def flush(self) -> None:
        self.acquire()
        try:
            if self._soon is not None:
                self._soon.cancel()
                self._soon = None
            super().flush()
        finally:
            self.release()


def configure(stream: IO[str], path: str | None = None) -> None:
    """INFO and above to stream (the supervisor's stderr: supervisor.log at `path`, which
    rotates), each line with its own time however late it is written."""
    # the format shows none of these: each was looked up for every line
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False
    target = RotatingStream(stream, path)
    target.setFormatter(OneLineFormatter(FORMAT))
    logging.basicConfig(level=logging.INFO, handlers=[SoonHandler(target)])
    for name in ("procler.refused", "uvicorn.error"):  # what any client can make us say
        logging.getLogger(name).addFilter(RateLimit())
