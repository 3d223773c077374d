from __future__ import annotations

import re
import threading
import time
from pathlib import Path

from procler.logs.query import follow
from procler.logs.store import LogStore


def write_later(store: LogStore, texts: list[str], delay: float) -> threading.Thread:
    """Append and flush `texts` from another thread after `delay`, a few lines per flush."""

    def write() -> None:
        time.sleep(delay)
        for i, text in enumerate(texts):
            store.append("app", time.time(), "stdout", 1, text)
            if i % 5 == 4:
                store.flush()
                time.sleep(0.001)
        store.flush()

    thread = threading.Thread(target=write)
    thread.start()
    return thread


def test_follow_gives_the_tail_then_new_lines_across_rotations_and_ends_at_timeout(
    logs_dir: Path,
) -> None:
    store = LogStore(logs_dir, max_size=2048, max_files=1000)
    store.append_many("app", time.time(), "stdout", 1, [f"before {i}" for i in range(5)])
    store.flush()
    later = [f"after {i}" for i in range(300)]
    writer = write_later(store, later, delay=0.2)
    seen = [line["text"] for line in follow(logs_dir, "app", tail=2, timeout=4.0)]
    writer.join()
    assert seen == ["before 3", "before 4", *later]
    assert len(list((logs_dir / "app").glob("*.log"))) > 5  # it really crossed rotations


def test_no_line_is_lost_or_repeated_between_the_tail_and_the_follow(logs_dir: Path) -> None:
    store = LogStore(logs_dir, max_size=4096, max_files=1000)
    store.append("app", time.time(), "stdout", 1, "n 0")
    store.flush()
    expected = [f"n {i}" for i in range(3000)]
    writer = write_later(store, expected[1:], delay=0.0)
    seen: list[str] = []
    for line in follow(logs_dir, "app", tail=None, run="all", timeout=60.0):
        seen.append(line["text"])
        if line["text"] == expected[-1]:
            break
    writer.join()
    assert seen == expected


def test_follow_filters_new_lines_and_waits_for_a_log_that_does_not_exist_yet(
    logs_dir: Path,
) -> None:
    store = LogStore(logs_dir)
    writer = write_later(store, ["skip 1", "keep 2", "skip 3", "keep 4"], delay=0.2)
    found = follow(logs_dir, ["app"], grep=re.compile("keep"), timeout=2.0)
    seen = [(line["process"], line["text"], line["run"]) for line in found]
    writer.join()
    assert seen == [("app", "keep 2", 1), ("app", "keep 4", 1)]
