from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from procler.logs import query as query_module
from procler.logs.query import follow
from procler.logs.scan import parse_cursor
from procler.logs.store import LogStore

HANDSHAKE = 30.0  # bound on waiting for the other side of a handshake
BOUND = 60.0  # a follow that is not ended by its last expected line ends here (a failure)


def write_when(store: LogStore, texts: list[str], go: threading.Event) -> threading.Thread:
    """Append and flush `texts` from another thread once `go` is set, a few lines per flush."""

    def write() -> None:
        assert go.wait(HANDSHAKE)
        for i, text in enumerate(texts):
            store.append("app", time.time(), "stdout", 1, text)
            if i % 5 == 4:
                store.flush()
                time.sleep(0.001)  # spread the writes over several polls
        store.flush()

    thread = threading.Thread(target=write)
    thread.start()
    return thread


def until(lines: Iterator[dict[str, Any]], last: str) -> list[dict[str, Any]]:
    """The lines up to and including the one whose text is `last`."""
    seen = []
    for line in lines:
        seen.append(line)
        if line["text"] == last:
            break
    return seen


@pytest.fixture
def polling(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """Set once a follow has handed over from its tail and waits for new lines."""
    waiting = threading.Event()

    def sleep(seconds: float) -> None:
        waiting.set()
        time.sleep(seconds)

    # Only the follow's own clock is replaced, not the time module everyone shares.
    monkeypatch.setattr(
        query_module, "time", SimpleNamespace(monotonic=time.monotonic, sleep=sleep)
    )
    return waiting


def test_follow_gives_the_tail_then_new_lines_across_rotations(logs_dir: Path) -> None:
    store = LogStore(logs_dir, max_size=2048, max_files=1000)
    store.append_many("app", time.time(), "stdout", 1, [f"before {i}" for i in range(5)])
    store.flush()
    later = [f"after {i}" for i in range(300)]
    tail_taken = threading.Event()
    writer = write_when(store, later, tail_taken)
    lines = follow(logs_dir, "app", tail=2, timeout=BOUND)
    seen = [next(lines)["text"], next(lines)["text"]]
    tail_taken.set()  # the follow starts from here: every later line must come
    seen += [line["text"] for line in until(lines, later[-1])]
    writer.join()
    assert seen == ["before 3", "before 4", *later]
    assert len(list((logs_dir / "app").glob("*.log"))) > 5  # it really crossed rotations


def test_follow_ends_at_its_timeout_with_a_line_that_says_so_and_where_to_resume(
    logs_dir: Path,
) -> None:
    store = LogStore(logs_dir)
    store.append("app", time.time(), "stdout", 1, "only")
    store.flush()
    *lines, end = follow(logs_dir, "app", timeout=0.0)
    assert [line["text"] for line in lines] == ["only"]
    size = (logs_dir / "app" / "0000000001.log").stat().st_size
    assert end == {"end": "timeout", "timeout_seconds": 0.0, "lines": 1, "cursor": f"app:1:{size}"}
    # nothing new: the resumed follow says so again at once, from the same place
    assert list(follow(logs_dir, "app", after=parse_cursor(end["cursor"]), timeout=0.0)) == [
        {**end, "lines": 0}
    ]
    store.append("app", time.time(), "stdout", 1, "later")
    store.flush()
    *lines, end = follow(logs_dir, "app", after=parse_cursor(end["cursor"]), timeout=0.0)
    assert [line["text"] for line in lines] == ["later"]
    assert end["cursor"] == f"app:1:{(logs_dir / 'app' / '0000000001.log').stat().st_size}"


def test_a_follow_without_new_lines_still_ends_with_its_cursor(logs_dir: Path) -> None:
    """No log yet, and no line: the one line printed is the end, whose cursor resumes from
    the log's beginning."""
    assert list(follow(logs_dir, ["app", "web"], timeout=0.0)) == [
        {"end": "timeout", "timeout_seconds": 0.0, "lines": 0, "cursor": "app:0:0,web:0:0"}
    ]


def test_no_line_is_lost_or_repeated_between_the_tail_and_the_follow(logs_dir: Path) -> None:
    store = LogStore(logs_dir, max_size=4096, max_files=1000)
    store.append("app", time.time(), "stdout", 1, "n 0")
    store.flush()
    expected = [f"n {i}" for i in range(3000)]
    at_once = threading.Event()
    at_once.set()  # the writer races the follow's hand-over on purpose
    writer = write_when(store, expected[1:], at_once)
    lines = follow(logs_dir, "app", tail=None, run="all", timeout=BOUND)
    seen = [line["text"] for line in until(lines, expected[-1])]
    writer.join()
    assert seen == expected


def test_follow_filters_new_lines_and_waits_for_a_log_that_does_not_exist_yet(
    logs_dir: Path, polling: threading.Event
) -> None:
    store = LogStore(logs_dir)
    writer = write_when(store, ["skip 1", "keep 2", "skip 3", "keep 4"], polling)
    found = follow(logs_dir, ["app"], grep=re.compile("keep"), timeout=BOUND)
    seen = [(line["process"], line["text"], line["run"]) for line in until(found, "keep 4")]
    writer.join()
    assert seen == [("app", "keep 2", 1), ("app", "keep 4", 1)]
