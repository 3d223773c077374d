"""The event bus: every status transition, health verdict, recipe step and (for those who
ask) log line, numbered and kept in a ring buffer for subscribers to resume from.

Publishing is a counter increment, a dict and a deque append, then one `offer` per
subscriber: nothing is encoded until a subscriber sends it (once per event, shared by all),
and with nobody listening no log line is even looked at. No task, timer or loop runs here.

`seq` starts at the supervisor's start time in microseconds and increases by one per
event, so it keeps increasing across supervisor restarts: a resume point from an earlier
supervisor is older than anything buffered and gets a `gap`. Every published event is in
the ring (its seqs are contiguous), so a resume point is found by arithmetic.

A subscriber has a bounded queue. When it is full, events are dropped for that subscriber
only and counted; the next thing it receives is `{type: "dropped", count, from, to}`. The
publisher never waits.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections import Counter, deque
from collections.abc import Callable, Iterable
from typing import Any

from procler.config.model import EventSettings
from procler.supervisor.clock import iso


class Event:
    """One message; its JSON text is made once, when a subscriber first sends it."""

    __slots__ = ("_frame", "_text", "body", "name", "resumable", "seq", "type")

    def __init__(self, body: dict[str, Any], resumable: bool = True) -> None:
        self.body = body
        self.seq: int = body["seq"]
        self.type: str = body["type"]
        self.name: str | None = body.get("name")
        self.resumable = resumable  # a client may resume after it (SSE `id:`)
        self._text: str | None = None
        self._frame: bytes | None = None

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = json.dumps(self.body, ensure_ascii=False, separators=(",", ":"))
        return self._text

    @property
    def frame(self) -> bytes:
        """The event as a Server-Sent Events frame: `id:` (a resume point) when resumable."""
        if self._frame is None:
            head = f"id: {self.seq}\n" if self.resumable else ""
            self._frame = f"{head}data: {self.text}\n\n".encode()
        return self._frame


class Subscriber:
    """One listener: a bounded queue filled by the bus, drained by its connection."""

    def __init__(self, logs: frozenset[str], limit: int) -> None:
        self.logs = logs
        self.limit = limit
        self.queue: deque[Event] = deque()
        self.ready = asyncio.Event()
        self.closed = False
        self.dropped = 0  # events dropped since the last `dropped` message
        self._drop_from = 0
        self._drop_to = 0

    def wants(self, event: Event) -> bool:
        return event.type != "log" or event.name in self.logs

    def offer(self, event: Event) -> None:
        if len(self.queue) >= self.limit:
            if not self.dropped:
                self._drop_from = event.seq
            self.dropped += 1
            self._drop_to = event.seq
            return
        self._report_drops()
        self.queue.append(event)
        self.ready.set()

    def _report_drops(self) -> None:
        if self.dropped:
            body = {
                "seq": self._drop_to,
                "type": "dropped",
                "count": self.dropped,
                "from": self._drop_from,
                "to": self._drop_to,
            }
            # No resume point: resuming from before `from` fetches them again if buffered.
            self.queue.append(Event(body, resumable=False))
            self.dropped = 0

    def close(self) -> None:
        self.closed = True
        self.ready.set()

    async def take(self) -> list[Event]:
        """Everything queued (waiting for something if nothing is); [] once closed and sent."""
        while True:
            self._report_drops()
            if self.queue:
                taken = list(self.queue)
                self.queue.clear()
                return taken
            if self.closed:
                return []
            self.ready.clear()
            await self.ready.wait()  # woken by offer, close, or the client leaving


class EventBus:
    def __init__(
        self,
        now: Callable[[], float],
        buffer: int = EventSettings.buffer,
        queue: int = EventSettings.subscriber_queue,
    ) -> None:
        self.now = now
        self.seq = int(now() * 1_000_000)  # the last published event's seq
        self.ring: deque[Event] = deque(maxlen=buffer)
        self.queue = queue
        self.subscribers: set[Subscriber] = set()
        self.log_names: Counter[str] = Counter()  # process -> subscribers asking its lines
        self.closed = False

    def configure(self, buffer: int, queue: int) -> None:
        """The config's sizes (at load and on every reload); the newest events are kept."""
        if buffer != self.ring.maxlen:
            self.ring = deque(self.ring, maxlen=buffer)
        self.queue = queue

    # -- publishing -----------------------------------------------------------------------

    def publish(self, kind: str, fields: dict[str, Any], ts: float | None = None) -> None:
        self.seq += 1
        event = Event(
            {"seq": self.seq, "ts": iso(self.now() if ts is None else ts), "type": kind, **fields}
        )
        self.ring.append(event)
        for sub in self.subscribers:
            if sub.wants(event):
                sub.offer(event)

    def status(self, name: str, src: str, dst: str, reason: str) -> None:
        """A transition of procler.states' status machine."""
        self.publish("status", {"name": name, "from": src, "to": dst, "reason": reason})

    def health(self, name: str, src: str, dst: str, reason: str) -> None:
        """A move of a run's health verdict (procler.states' health machine)."""
        self.publish("health", {"name": name, "from": src, "to": dst, "reason": reason})

    def recipe_step(
        self, recipe: str, run_id: str, step: str, action: str, src: str, dst: str, reason: str = ""
    ) -> None:
        """A recipe run's step moved (procler.recipe_states' step machine, e.g. pending ->
        running): `step` is the step's id, `action` what it does as written (e.g. "start api")."""
        fields = {"name": recipe, "run_id": run_id, "step": step, "action": action}
        self.publish("recipe_step", {**fields, "from": src, "to": dst, "reason": reason})

    def log_lines(self, name: str, run: int, stream: str, texts: Iterable[str], ts: float) -> None:
        """Output lines of one process: published only while someone asks for them."""
        if name not in self.log_names:
            return
        for text in texts:
            self.publish("log", {"name": name, "run": run, "stream": stream, "text": text}, ts)

    # -- subscribing ----------------------------------------------------------------------

    def subscribe(self, logs: frozenset[str]) -> Subscriber:
        sub = Subscriber(logs, self.queue)
        if self.closed:
            sub.close()
            return sub
        self.subscribers.add(sub)
        self.log_names.update(logs)
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        if sub in self.subscribers:
            self.subscribers.discard(sub)
            self.log_names.subtract(sub.logs)
            self.log_names = +self.log_names  # drop the names nobody asks for any more
        sub.close()

    def oldest(self) -> int:
        """The seq of the oldest buffered event (the next one's when none is)."""
        return self.ring[0].seq if self.ring else self.seq + 1

    def since(self, seq: int, sub: Subscriber) -> list[Event]:
        """The buffered events after seq that sub wants, after a `gap` if some are gone."""
        oldest = self.oldest()
        backlog: list[Event] = []
        if seq + 1 < oldest:
            body = {"seq": oldest - 1, "type": "gap", "from": seq + 1, "to": oldest - 1}
            backlog.append(Event(body))
        start = max(seq + 1 - oldest, 0)
        backlog += [e for e in itertools.islice(self.ring, start, None) if sub.wants(e)]
        return backlog

    def close(self) -> None:
        """The supervisor stops: every stream ends."""
        self.closed = True
        for sub in list(self.subscribers):
            self.unsubscribe(sub)
