"""The supervisor's own log (supervisor.log): each line written soon after it was logged.

Every status change is logged, and a line formatted and written at once cost about a
tenth of a millisecond of the loop, in the middle of a start or a stop, several times a
step (a third of a recipe step's own time). INFO lines therefore wait up to WRITE_WITHIN
and are written together, by the loop, usually while the supervisor waits on its
processes. A warning or an error writes itself and what waits at once; so does a line
logged with no loop running in its thread, and closing (logging.shutdown at exit). A
kill -9 can lose the last WRITE_WITHIN of INFO lines, as the output log can lose its own.
"""

from __future__ import annotations

import asyncio
import logging
import logging.handlers
from typing import IO

WRITE_WITHIN = 0.05  # seconds an INFO line may wait
BUFFERED = 10_000  # lines waiting at most: more are written at once
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


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


def configure(stream: IO[str]) -> None:
    """INFO and above to stream (the supervisor's stderr: supervisor.log), each line with
    its own time however late it is written."""
    # the format shows none of these: each was looked up for every line
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False
    target = logging.StreamHandler(stream)
    target.setFormatter(logging.Formatter(FORMAT))
    logging.basicConfig(level=logging.INFO, handlers=[SoonHandler(target)])
