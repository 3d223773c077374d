"""The event feed (the TUI's and `up --attach`'s) ends when told to stop, whenever that
comes: a stop while a subscription was opening found no socket to cut, and the feed then
read the new subscription for its whole FOLLOW_FOR (30 s), so quitting the TUI hung."""

from __future__ import annotations

import socket
import threading

import pytest

from procler.cli import event_feed
from procler.cli.event_feed import Feed


def test_a_stop_while_a_subscription_opens_ends_the_feed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    feed = Feed(f"{tmp_path}/.procler/config.yaml", lambda _m: None, lambda _g: None)
    ours, supervisors = socket.socketpair()  # the supervisor's end stays open, silent
    opened: list[str] = []

    def open_events(sock_path: str, path: str) -> tuple[socket.socket, bytes]:
        opened.append(path)
        feed.stop_following()  # the TUI quits while this subscription opens
        return ours, b""

    monkeypatch.setattr(event_feed, "open_events", open_events)
    reader = threading.Thread(target=feed.run, daemon=True)
    reader.start()
    reader.join(10)  # a feed reading on would hold on for FOLLOW_FOR (30 s)
    alive = reader.is_alive()
    supervisors.close()  # lets a hung reader end
    reader.join(40)
    assert (alive, opened) == (False, ["/v1/events"])
