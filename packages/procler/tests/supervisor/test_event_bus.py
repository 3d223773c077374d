"""The event bus on its own: numbering, the ring buffer, resume points, gaps, drops."""

from __future__ import annotations

import asyncio

from procler.logs.record import format_ts
from procler.supervisor.event_bus import EventBus

START = 1_800_000_000.0  # the bus's clock: seqs start at this time in microseconds
BASE = 1_800_000_000_000_000


def bus(buffer: int = 100, queue: int = 100) -> EventBus:
    return EventBus(lambda: START, buffer, queue)


def taken(sub_bus: EventBus, logs: frozenset[str] = frozenset()) -> list[dict[str, object]]:
    """What one subscriber gets after three status events and a log line of `api`."""
    sub = sub_bus.subscribe(logs)
    sub_bus.status("api", "stopped", "starting", "start requested")
    sub_bus.log_lines("api", 1, "stdout", ["hello"], START + 1)
    sub_bus.status("api", "starting", "running", "started")
    return [e.body for e in asyncio.run(sub.take())]


def test_publishing_numbers_each_event_and_keeps_it() -> None:
    b = bus()
    b.status("api", "stopped", "starting", "start requested")
    b.health("api", "stopped", "starting", "run started")
    b.recipe_step("deploy", "r7", "s1", "start api", "pending", "running")
    assert [e.body for e in b.ring] == [
        {
            "seq": BASE + 1,
            "ts": "2027-01-15T08:00:00.000000Z",
            "type": "status",
            "name": "api",
            "from": "stopped",
            "to": "starting",
            "reason": "start requested",
        },
        {
            "seq": BASE + 2,
            "ts": "2027-01-15T08:00:00.000000Z",
            "type": "health",
            "name": "api",
            "from": "stopped",
            "to": "starting",
            "reason": "run started",
        },
        {
            "seq": BASE + 3,
            "ts": "2027-01-15T08:00:00.000000Z",
            "type": "recipe_step",
            "name": "deploy",
            "run_id": "r7",
            "step": "s1",
            "action": "start api",
            "from": "pending",
            "to": "running",
            "reason": "",
        },
    ]
    assert b.ring[0].text == (
        '{"seq":1800000000000001,"ts":"2027-01-15T08:00:00.000000Z","type":"status",'
        '"name":"api","from":"stopped","to":"starting","reason":"start requested"}'
    )


def test_log_lines_are_published_only_while_someone_asks_for_them() -> None:
    b = bus()
    b.log_lines("api", 1, "stdout", ["nobody listens"], START)
    assert (b.seq, len(b.ring), dict(b.log_names)) == (BASE, 0, {})
    assert [m["type"] for m in taken(b)] == ["status", "status"]
    assert [m.get("text") for m in taken(b, frozenset({"api"}))] == [None, "hello", None]
    assert [e.type for e in b.ring] == ["status", "status", "status", "log", "status"]
    b.unsubscribe(next(iter(b.subscribers)))
    b.unsubscribe(next(iter(b.subscribers)))
    assert (b.subscribers, dict(b.log_names)) == (set(), {})


def test_resume_within_the_buffer_and_a_gap_beyond_it() -> None:
    b = bus(buffer=3)
    for i in range(5):
        b.status("api", "a", "b", f"change {i}")
    sub = b.subscribe(frozenset())
    assert [e.body["reason"] for e in b.since(BASE + 3, sub)] == ["change 3", "change 4"]
    assert b.since(BASE + 5, sub) == []
    gap, *rest = b.since(BASE, sub)
    assert gap.body == {"seq": BASE + 2, "type": "gap", "from": BASE + 1, "to": BASE + 2}
    assert (gap.resumable, [e.seq for e in rest]) == (True, [BASE + 3, BASE + 4, BASE + 5])
    assert b.oldest() == BASE + 3
    b.configure(buffer=1, queue=10)
    assert ([e.seq for e in b.ring], b.queue) == ([BASE + 5], 10)


def test_a_full_queue_drops_counts_and_reports_then_delivers_again() -> None:
    b = bus(queue=3)
    sub = b.subscribe(frozenset())
    for i in range(10):
        b.status("api", "a", "b", f"change {i}")
    first = asyncio.run(sub.take())
    assert [e.seq for e in first[:3]] == [BASE + 1, BASE + 2, BASE + 3]
    assert first[3].body == {
        "seq": BASE + 10,
        "type": "dropped",
        "count": 7,
        "from": BASE + 4,
        "to": BASE + 10,
    }
    assert (len(first), first[3].resumable, sub.dropped) == (4, False, 0)
    for i in range(5):
        b.status("api", "a", "b", f"again {i}")
    second = asyncio.run(sub.take())
    assert [e.type for e in second] == ["status", "status", "status", "dropped"]
    assert (second[3].body["count"], second[3].body["from"]) == (2, BASE + 14)


def test_close_ends_every_subscription_after_what_was_queued() -> None:
    b = bus()
    sub = b.subscribe(frozenset({"api"}))
    b.status("api", "running", "stopping", "daemon stop")
    b.close()
    assert [e.body["to"] for e in asyncio.run(sub.take())] == ["stopping"]
    assert asyncio.run(sub.take()) == []
    late = b.subscribe(frozenset())
    assert (late.closed, b.subscribers, dict(b.log_names)) == (True, set(), {})


def test_a_log_event_carries_the_time_the_log_store_answers_for_its_line() -> None:
    """A read time whose microseconds round up (…456.7 us): the store cuts it to 456, and so
    must the event, or a client merging `logs` with the stream shows the line twice."""
    read_at = 1_800_000_000.1234567
    b = bus()
    sub = b.subscribe(frozenset({"api"}))
    b.log_lines("api", 1, "stdout", ["tick 4"], read_at)
    (event,) = [e.body for e in asyncio.run(sub.take())]
    assert event["ts"] == format_ts(int(read_at * 1_000_000)) == "2027-01-15T08:00:00.123456Z"
