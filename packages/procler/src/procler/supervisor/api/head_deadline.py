"""uvicorn's HTTP protocol with bounds on connections still sending a request's head (the
TCP listener's): slow clients cannot keep others from being served.

Before a request's head is whole nobody knows who sends it, and uvicorn counts every open
connection against its limit (`limit_concurrency`, 64 here): clients dribbling headers
(slowloris) held all 64 and everyone else got 503. Here:
- a head must be whole HEADER_WAIT seconds after its connection opened (or, on a kept-alive
  connection, after its request began), however slowly its bytes come;
- a connection still sending its head counts against no limit but its own: at most HEADS
  of them at once, HEADS_PER_PEER from one address; a new one past either takes the place
  of the oldest (closed);
- the limit counts requests being answered: past it, a request whose head came is 503.
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEADER_WAIT = 5.0  # seconds from a connection (or a kept-alive request's start) to its head
HEADS = 256  # connections sending a head at once, in all: an fd and a few KiB each
HEADS_PER_PEER = 128  # ... and from one address


class HeaderDeadline(HttpToolsProtocol):  # type: ignore[misc]
    """uvicorn's protocol with the bounds of the module docstring."""

    # every connection of this process still sending a head, oldest first (dicts keep order)
    reading: ClassVar[dict[HeaderDeadline, None]] = {}
    _head_timer: asyncio.TimerHandle | None = None
    _peer = ""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.requests_limit: int | None = self.limit_concurrency

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        peer = transport.get_extra_info("peername")
        self._peer = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        self._begin()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._head_timer is None:  # the next request of a kept-alive connection
            self._begin()

    def on_headers_complete(self) -> None:
        self._end()
        # uvicorn answers 503 when its limit is 0 and lets the request through when None:
        # the limit holds for requests being answered (its tasks), not for open connections
        busy = self.requests_limit is not None and len(self.tasks) >= self.requests_limit
        self.limit_concurrency = 0 if busy else None
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._end()
        super().connection_lost(exc)

    def _begin(self) -> None:
        self._end()
        self._head_timer = self.loop.call_later(HEADER_WAIT, self.transport.close)
        reading = HeaderDeadline.reading
        mine = [c for c in reading if c._peer == self._peer]
        if len(mine) >= HEADS_PER_PEER:
            mine[0]._evict()
        elif len(reading) >= HEADS:
            next(iter(reading))._evict()
        reading[self] = None

    def _end(self) -> None:
        HeaderDeadline.reading.pop(self, None)
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _evict(self) -> None:
        """A newer connection takes this one's place: closed before its head came."""
        self._end()
        self.transport.close()
