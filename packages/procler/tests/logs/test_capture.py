from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from procler_testkit.log_pages import all_lines

from procler.logs.capture import CHUNK_LIMIT, LineChunk, LineSplitter, read_lines
from procler.logs.store import LogStore

if TYPE_CHECKING:
    from procler_testkit.capture import CaptureChild


def texts(directory: Path, process: str = "app", stream: str | None = None) -> list[str]:
    return [line["text"] for line in all_lines(directory, process, run="all", stream=stream)]


def test_burst_of_200000_lines_on_both_streams_keeps_every_line_in_order(
    logs_dir: Path, capture_child: CaptureChild
) -> None:
    code = (
        "import sys\n"
        "for i in range(200000):\n"
        "    sys.stdout.write(f'out {i}\\n'); sys.stderr.write(f'err {i}\\n')\n"
    )
    store = LogStore(logs_dir, max_size=1 << 30, max_files=2)
    assert capture_child(store, "app", 1, code) == 0
    lines = all_lines(logs_dir, "app", run="all")
    assert len(lines) == 400000
    by_stream: dict[str, list[str]] = {"stdout": [], "stderr": []}
    for line in lines:
        by_stream[line["stream"]].append(line["text"])
    assert by_stream["stdout"] == [f"out {i}" for i in range(200000)]
    assert by_stream["stderr"] == [f"err {i}" for i in range(200000)]


def test_a_1_mib_line_is_kept_whole_as_marked_64_kib_chunks(
    logs_dir: Path, capture_child: CaptureChild
) -> None:
    code = "import sys; sys.stdout.write('x' * 1048576 + '\\nafter\\n')"
    store = LogStore(logs_dir)
    capture_child(store, "app", 1, code)
    lines = all_lines(logs_dir, "app")
    assert len(lines) == 17
    assert [len(line["text"]) for line in lines[:16]] == [CHUNK_LIMIT] * 16
    assert "".join(line["text"] for line in lines[:16]) == "x" * 1048576
    assert [line.get("partial", False) for line in lines] == [True] * 15 + [False, False]
    assert lines[16] == {"ts": lines[16]["ts"], "stream": "stdout", "run": 1, "text": "after"}


def test_long_multibyte_lines_are_cut_between_characters(
    logs_dir: Path, capture_child: CaptureChild
) -> None:
    code = "import sys; sys.stdout.write('\\u20ac' * 100000 + '\\n')"  # 3 bytes each
    capture_child(LogStore(logs_dir), "app", 1, code)
    chunks = texts(logs_dir)
    assert [len(chunk) for chunk in chunks] == [21845, 21845, 21845, 21845, 12620]
    assert "".join(chunks) == "\u20ac" * 100000


def test_invalid_utf8_becomes_replacement_characters(
    logs_dir: Path, capture_child: CaptureChild
) -> None:
    code = "import sys; sys.stdout.buffer.write(b'ok \\xff\\xfe end\\ncut \\xe2\\x82\\n')"
    capture_child(LogStore(logs_dir), "app", 1, code)
    assert texts(logs_dir) == ["ok \ufffd\ufffd end", "cut \ufffd"]


def test_a_final_line_without_newline_is_kept(logs_dir: Path, capture_child: CaptureChild) -> None:
    code = "import sys; sys.stdout.write('first\\nlast without newline'); sys.stderr.write('e')"
    capture_child(LogStore(logs_dir), "app", 1, code)
    assert texts(logs_dir, stream="stdout") == ["first", "last without newline"]
    assert texts(logs_dir, stream="stderr") == ["e"]


def test_carriage_return_redraws_keep_only_the_last_one(
    logs_dir: Path, capture_child: CaptureChild
) -> None:
    code = (
        "import sys\n"
        "sys.stdout.write('10%\\r50%\\r100%\\nwindows\\r\\n')\n"
        "for i in range(100000):\n"
        "    sys.stdout.write(f'progress {i}\\r')\n"
        "sys.stdout.write('done\\n')\n"
    )
    capture_child(LogStore(logs_dir), "app", 1, code)
    assert texts(logs_dir) == ["100%", "windows", "done"]


def test_splitter_joins_pieces_split_inside_characters_and_crlf() -> None:
    splitter = LineSplitter()
    assert splitter.feed(b"abc\r") == []
    assert splitter.feed(b"\n\xe2\x82") == [(["abc"], False)]
    assert splitter.feed(b"\xac\ntwo\nthr") == [(["\u20ac", "two"], False)]
    assert splitter.feed(b"ee\r") == []
    assert splitter.finish() == [(["three"], False)]
    assert splitter.finish() == []


def test_splitter_emits_chunks_of_an_unfinished_line_as_they_fill() -> None:
    splitter = LineSplitter()
    assert splitter.feed(b"a" * (CHUNK_LIMIT + 10)) == [(["a" * CHUNK_LIMIT], True)]
    assert splitter.feed(b"b\n") == [(["a" * 10 + "b"], False)]


def test_read_lines_yields_one_chunk_per_line_with_its_stream() -> None:
    async def collect() -> list[LineChunk]:
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-c", "print('a'); print('b')", stdout=asyncio.subprocess.PIPE
        )
        assert child.stdout is not None
        chunks = [chunk async for chunk in read_lines(child.stdout, "stdout")]
        await child.wait()
        return chunks

    chunks = asyncio.run(collect())
    assert [(c.stream, c.text, c.partial) for c in chunks] == [
        ("stdout", "a", False),
        ("stdout", "b", False),
    ]
