from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from procler_testkit.log_pages import all_lines

from procler.logs.record import encode_records
from procler.logs.segment import INDEX_INTERVAL, list_segments, read_index, segment_path
from procler.logs.store import LogStore


def stored_texts(directory: Path, process: str = "app") -> list[str]:
    return [line["text"] for line in all_lines(directory, process, run="all")]


def test_rotation_keeps_the_newest_lines_and_bounded_disk(logs_dir: Path) -> None:
    store = LogStore(logs_dir, max_size=4096, max_files=3)
    for i in range(2000):
        store.append("app", 1000.0 + i, "stdout", 1, f"line {i:05d}")
        if i % 7 == 0:
            store.flush()
    store.close()
    folder = logs_dir / "app"
    numbers = list_segments(folder)
    assert len(numbers) == 3
    sizes = [segment_path(folder, n).stat().st_size for n in numbers]
    assert max(sizes) <= 4096
    assert sum(sizes) <= 4096 * 3
    texts = stored_texts(logs_dir)
    first = int(texts[0].split()[1])
    assert texts == [f"line {i:05d}" for i in range(first, 2000)]
    assert first > 1000  # the oldest segments were deleted


def test_a_prepared_process_has_its_files_before_its_first_line(logs_dir: Path) -> None:
    with LogStore(logs_dir) as store:
        store.append("app", 1.0, "stdout", 1, "before")
    with LogStore(logs_dir) as store:
        store.prepare("app")  # continues the segment, as a first line would
        store.prepare("new")
        assert (list_segments(logs_dir / "app"), list_segments(logs_dir / "new")) == ([1], [1])
        assert (logs_dir / "new").stat().st_mode & 0o777 == 0o700
        store.append("app", 2.0, "stdout", 2, "after")
    assert stored_texts(logs_dir) == ["before", "after"]
    assert stored_texts(logs_dir, "new") == []


def test_a_reopened_store_continues_the_newest_segment(logs_dir: Path) -> None:
    with LogStore(logs_dir) as store:
        store.append_many("app", 10.0, "stdout", 1, ["a", "b"])
    with LogStore(logs_dir) as store:
        store.append("app", 5.0, "stderr", 2, "c")  # an earlier clock still sorts after
    assert list_segments(logs_dir / "app") == [1]
    lines = all_lines(logs_dir, "app", run="all")
    assert [(line["text"], line["stream"], line["run"]) for line in lines] == [
        ("a", "stdout", 1),
        ("b", "stdout", 1),
        ("c", "stderr", 2),
    ]
    assert [line["ts"] for line in lines] == ["1970-01-01T00:00:10.000000Z"] * 3


def test_a_record_torn_by_a_crash_is_skipped_then_cut_on_reopen(logs_dir: Path) -> None:
    with LogStore(logs_dir) as store:
        store.append("app", 1.0, "stdout", 1, "whole")
    with segment_path(logs_dir / "app", 1).open("ab") as file:
        file.write(b'{"ts":2000000,"s":"o","r":1,"t":"tor')
    assert stored_texts(logs_dir) == ["whole"]
    with LogStore(logs_dir) as store:
        store.append("app", 3.0, "stdout", 1, "next")
    assert stored_texts(logs_dir) == ["whole", "next"]


def test_the_index_has_an_entry_at_the_start_and_about_every_64_kib(logs_dir: Path) -> None:
    with LogStore(logs_dir, flush_threshold=1) as store:
        for i in range(5000):
            store.append("app", 100.0 + i, "stdout", 1 + i // 1000, "x" * 100)
    size = segment_path(logs_dir / "app", 1).stat().st_size
    entries = read_index(logs_dir / "app", 1, size)
    assert entries[0].offset == 0
    assert (entries[0].ts_us, entries[0].run) == (100_000_000, 1)
    gaps = [b.offset - a.offset for a, b in itertools.pairwise(entries)]
    assert all(INDEX_INTERVAL <= gap < INDEX_INTERVAL + 200 for gap in gaps)
    assert len(entries) == 1 + (size - 1) // gaps[0]


def test_a_process_name_that_could_escape_the_folder_is_refused(logs_dir: Path) -> None:
    with pytest.raises(ValueError, match="invalid process name"):
        LogStore(logs_dir).append("../evil", 1.0, "stdout", 1, "x")


WRITER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from procler.logs.store import LogStore
    store = LogStore(Path(sys.argv[1]))
    for i in range(5000):
        store.append("app", time.time(), "stdout", 1, f"kept {i}")
    store.flush()
    for i in range(10):
        store.append("app", time.time(), "stdout", 1, f"unflushed {i}")
    print("ready", flush=True)
    time.sleep(60)
    """
)


def test_flushed_lines_survive_kill_9_of_the_writer(logs_dir: Path) -> None:
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(logs_dir)], stdout=subprocess.PIPE, text=True
    )
    assert writer.stdout is not None
    assert writer.stdout.readline() == "ready\n"
    writer.send_signal(signal.SIGKILL)
    assert writer.wait() == -signal.SIGKILL
    writer.stdout.close()
    assert stored_texts(logs_dir) == [f"kept {i}" for i in range(5000)]


SUPERVISOR = textwrap.dedent(
    """
    import asyncio, sys
    from pathlib import Path
    from procler.logs.capture import capture_stream
    from procler.logs.store import LogStore

    async def main():
        store = LogStore(Path(sys.argv[1]))
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-c",
            "import time\\nfor i in range(1000): print(f'line {i}')\\n"
            "import sys; sys.stdout.flush(); time.sleep(60)",
            stdout=asyncio.subprocess.PIPE)
        print(child.pid, flush=True)
        async def flush_often():
            while True:
                store.flush()
                await asyncio.sleep(0.05)
        asyncio.ensure_future(flush_often())
        await capture_stream(child.stdout, "stdout", store, "app", 1)

    asyncio.run(main())
    """
)


def test_captured_lines_survive_kill_9_of_the_supervisor(logs_dir: Path) -> None:
    supervisor = subprocess.Popen(
        [sys.executable, "-c", SUPERVISOR, str(logs_dir)], stdout=subprocess.PIPE, text=True
    )
    assert supervisor.stdout is not None
    child_pid = int(supervisor.stdout.readline())
    try:
        deadline = time.monotonic() + 30
        while len(stored_texts(logs_dir)) < 1000 and time.monotonic() < deadline:
            time.sleep(0.05)
        supervisor.send_signal(signal.SIGKILL)
        supervisor.wait()
    finally:
        os.kill(child_pid, signal.SIGKILL)
        supervisor.stdout.close()
    assert stored_texts(logs_dir) == [f"line {i}" for i in range(1000)]


def test_a_burst_is_written_once_the_buffer_passes_the_threshold(logs_dir: Path) -> None:
    record_size = len(encode_records(1_000_000, "stdout", 1, ["y" * 100]))
    store = LogStore(logs_dir, flush_threshold=100 * record_size)
    store.append_many("app", 1.0, "stdout", 1, ["y" * 100] * 99)  # below: still in memory
    assert segment_path(logs_dir / "app", 1).stat().st_size == 0
    store.append_many("app", 1.0, "stdout", 1, ["y" * 100])
    assert len(stored_texts(logs_dir)) == 100
    store.close()


def test_single_and_batched_appends_keep_their_order_and_partial_marks(logs_dir: Path) -> None:
    with LogStore(logs_dir) as store:
        store.append("app", 1.0, "stdout", 1, "a")
        store.append_many("app", 1.0, "stdout", 1, ["b", "c"])
        store.append("app", 1.0, "stdout", 1, "d-start", partial=True)
        store.append("app", 1.0, "stdout", 1, "d-end")
        store.append("app", 1.0, "stderr", 1, "e")
    lines = all_lines(logs_dir, "app")
    assert [(line["text"], line["stream"], line.get("partial", False)) for line in lines] == [
        ("a", "stdout", False),
        ("b", "stdout", False),
        ("c", "stdout", False),
        ("d-start", "stdout", True),
        ("d-end", "stdout", False),
        ("e", "stderr", False),
    ]
