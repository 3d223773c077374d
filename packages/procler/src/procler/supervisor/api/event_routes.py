"""The event stream over HTTP: `GET /v1/events` (Server-Sent Events) and `GET /v1/ws`
(WebSocket), the same messages on both.

A subscription sends a snapshot of every process first (`{seq, ts, type: "snapshot",
processes}`, `seq` being the last event it reflects), then the buffered events after the
resume point, then every new event as it is published.

Query: `since=SEQ` (or the `Last-Event-ID` header) resumes after SEQ, with a `gap` first
when some of those events left the buffer; `logs=api,worker` adds those processes' output
lines; `once` ends the stream after the snapshot and the buffered events (all of them
when no resume point is given). Bad input answers the CLI's error envelope (SSE: HTTP 400;
WebSocket: the envelope as a message, then close code 4400).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING
from urllib.parse import parse_qs

from agentcli.envelope import dumps
from agentcli.errors import UsageError
from agentcli.main import failure
from procler.errors import ProcessNotFound
from procler.supervisor import memory
from procler.supervisor.api.command_routes import Receive, Scope, Send, send_json
from procler.supervisor.clock import iso
from procler.supervisor.event_bus import Event, EventBus, Subscriber
from procler.supervisor.sampler import ProcessSampler
from procler.supervisor.status import described

if TYPE_CHECKING:
    from procler.supervisor.core import Supervisor

log = logging.getLogger("procler.events")
SNAPSHOT_SHARED = 1.0  # seconds a snapshot serves the subscribers that come at its seq

SSE_ROUTE = "/v1/events"
WS_ROUTE = "/v1/ws"
WS_REFUSED = 4400  # close code after an error envelope (4000 + the HTTP status)
WS_GOING_AWAY = 1001  # the supervisor stops


class Request:
    """What a subscription asked for."""

    def __init__(self, since: int | None, logs: frozenset[str], once: bool) -> None:
        self.since = since
        self.logs = logs
        self.once = once


def parse_request(scope: Scope, known: list[str], head: int) -> Request:
    """The subscription's parameters; UsageError (or ProcessNotFound) for bad ones."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
    headers = dict(scope.get("headers") or [])
    given = query.get("since", [None])[-1]
    if given is None and b"last-event-id" in headers:
        given = headers[b"last-event-id"].decode("latin-1")
    since = None
    if given is not None:
        if not given.isdigit():
            raise UsageError(
                f"since must be an event's seq (a whole number), got {given!r}",
                suggestion="pass the seq of the last message you received",
            )
        since = int(given)
        if since > head:
            raise UsageError(
                f"since={since} is after the newest event ({head})",
                suggestion="pass a seq this supervisor sent, or leave since out",
            )
    logs = frozenset(n for item in query.get("logs", []) for n in item.split(",") if n)
    for name in sorted(logs):
        if name not in known:
            raise ProcessNotFound.among(name, known)
    return Request(since, logs, "once" in query)


def snapshot(sup: Supervisor, seq: int) -> Event:
    """Every process's status (as `procler status` shows it) at event seq."""
    sampler, now = ProcessSampler(), sup.clock.time()
    processes = [
        described(sup, sup.runtimes[n], sampler)
        for n in sup.config().processes
        if n in sup.runtimes
    ]
    body = {"seq": seq, "ts": iso(now), "type": "snapshot", "processes": processes}
    return Event(body, resumable=False)


class EventRoutes:
    """The stream routes, handed to procler.supervisor.api.command_routes.Api (which asks it first)."""

    def __init__(self, sup: Supervisor) -> None:
        self.sup = sup
        # the snapshot of (seq, when): shared by the subscribers that come at the same seq
        # within SNAPSHOT_SHARED seconds, instead of one status of every process each
        self._snapshot: tuple[int, float, Event] | None = None

    @property
    def bus(self) -> EventBus:
        return self.sup.events

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> bool:
        """Serve scope if it is a stream route; False (nothing sent) otherwise."""
        if scope["type"] == "websocket" and scope["path"] == WS_ROUTE:
            await self.websocket(scope, receive, send)
        elif scope["type"] == "http" and scope["path"] == SSE_ROUTE and scope["method"] == "GET":
            await self.sse(scope, receive, send)
        else:
            return False
        return True

    def open(self, scope: Scope) -> tuple[Subscriber, list[Event], bool]:
        """Subscribe: (subscriber, snapshot + backlog, whether to end after the backlog).
        Nothing awaits in here, so the snapshot and the backlog meet exactly."""
        request = parse_request(scope, list(self.sup.config().processes), self.bus.seq)
        # `once` reads the buffer only: nothing new is published for it
        sub = (
            Subscriber(request.logs, self.bus.queue)
            if request.once
            else self.bus.subscribe(request.logs)
        )
        since = request.since
        if since is None and request.once:
            since = self.bus.oldest() - 1  # all that is buffered, no gap
        backlog = self.bus.since(since, sub) if since is not None else []
        return sub, [self.shared_snapshot(), *backlog], request.once

    def shared_snapshot(self) -> Event:
        seq, now = self.bus.seq, self.sup.clock.monotonic()
        kept = self._snapshot
        if kept is None or kept[0] != seq or now - kept[1] > SNAPSHOT_SHARED:
            kept = self._snapshot = (seq, now, snapshot(self.sup, seq))
        return kept[2]

    async def sse(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            sub, first, once = self.open(scope)
        except UsageError as exc:
            await send_json(send, *failure(exc))
            return
        headers = [
            (b"content-type", b"text/event-stream; charset=utf-8"),
            (b"cache-control", b"no-store"),
            (b"x-accel-buffering", b"no"),
        ]
        await send({"type": "http.response.start", "status": 200, "headers": headers})

        async def deliver(events: list[Event]) -> None:
            await send(
                {
                    "type": "http.response.body",
                    "body": b"".join(e.frame for e in events),
                    "more_body": True,
                }
            )

        await self.pump(sub, first, once, deliver, receive, "http.disconnect")
        with contextlib.suppress(OSError):
            await send({"type": "http.response.body", "body": b""})

    async def websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (await receive())["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        try:
            sub, first, once = self.open(scope)
        except UsageError as exc:
            await send({"type": "websocket.send", "text": dumps(failure(exc)[0])})
            await send({"type": "websocket.close", "code": WS_REFUSED})
            return

        async def deliver(events: list[Event]) -> None:
            for event in events:
                await send({"type": "websocket.send", "text": event.text})

        await self.pump(sub, first, once, deliver, receive, "websocket.disconnect")
        with contextlib.suppress(OSError):
            await send({"type": "websocket.close", "code": 1000 if once else WS_GOING_AWAY})

    async def pump(
        self,
        sub: Subscriber,
        first: list[Event],
        once: bool,
        deliver: Callable[[list[Event]], Awaitable[None]],
        receive: Receive,
        gone: str,
    ) -> None:
        """Send first, then what the bus queues for sub, until the client leaves, the
        supervisor stops, or (once) right away."""

        async def watch() -> None:
            while (await receive())["type"] != gone:
                pass  # a WebSocket client's own messages mean nothing here
            sub.close()

        watcher = asyncio.create_task(watch())
        try:
            await deliver(first)
            while not once:
                events = await sub.take()
                if not events:
                    break
                await deliver(events)
        except OSError:
            log.info("an event subscriber went away while being sent to")
        finally:
            self.bus.unsubscribe(sub)
            watcher.cancel()
            if not self.bus.subscribers:
                memory.release_soon()  # the last one left: what they all held goes back
