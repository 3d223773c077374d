"""A child's stdout or stderr read straight from the event loop: `add_reader` and `os.read`.

asyncio's `connect_read_pipe` gives each pipe a transport, a protocol, a StreamReader and a
task to drain it (and an fstat and an epoll registration through two layers): for a burst
of 1,000 starts that was 2,000 of each, a sizeable part of the supervisor's CPU. Here a
pipe costs a callback on the loop. Lines follow `procler.logs.capture`'s rules (its
LineSplitter); all lines of one read share the time of that read.

Backpressure: once `queue` holds `QUEUE_BOUND` batches nothing more is read (the child
then waits on its full pipe, as it did behind a full StreamReader) until the consumer
takes some and calls `resume`.
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import IO

from procler.contexts.base import OutputBatch
from procler.logs.capture import READ_SIZE, LineSplitter

QUEUE_BOUND = 256  # batches waiting for the consumer before reading stops


class PipeReader:
    """Reads one pipe into `queue` until EOF, then puts None and closes the pipe."""

    def __init__(
        self, pipe: IO[bytes], stream: str, queue: asyncio.Queue[OutputBatch | None]
    ) -> None:
        self._loop = asyncio.get_running_loop()
        self._pipe = pipe
        self._fd = pipe.fileno()
        os.set_blocking(self._fd, False)
        self._stream = stream
        self._queue = queue
        self._splitter = LineSplitter()
        self._reading = False
        self._done = False
        self.resume()

    def resume(self) -> None:
        """Read again if reading stopped for a full queue and there is room now."""
        if not self._reading and not self._done and self._queue.qsize() < QUEUE_BOUND:
            self._loop.add_reader(self._fd, self._readable)
            self._reading = True

    def _pause(self) -> None:
        if self._reading:
            self._loop.remove_reader(self._fd)
            self._reading = False

    def _readable(self) -> None:
        try:
            data = os.read(self._fd, READ_SIZE)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""  # the pipe broke: what was read is all there is
        ts = time.time()
        for texts, partial in self._splitter.feed(data) if data else self._splitter.finish():
            self._queue.put_nowait(OutputBatch(self._stream, texts, ts, partial))
        if not data:
            self._queue.put_nowait(None)
            self.close()
        elif self._queue.qsize() >= QUEUE_BOUND:
            self._pause()

    def close(self) -> None:
        """Stop reading and close the pipe (at EOF, or when the consumer goes away)."""
        self._done = True
        self._pause()
        self._pipe.close()
