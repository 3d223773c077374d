"""uvicorn's HTTP protocol with a deadline on each request's head (the TCP listener's)."""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEADER_WAIT = 10.0  # seconds from a connection (or a request's first byte) to its whole head


class HeaderDeadline(HttpToolsProtocol):  # type: ignore[misc]
    """uvicorn's protocol, but a client gets HEADER_WAIT seconds to send a request's head
    (uvicorn bounds only idle keep-alive): a slow client cannot hold a connection."""

    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(HEADER_WAIT, self.transport.close)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
