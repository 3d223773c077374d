"""Segment files and their sidecar index, and reading records from the end backwards.

A process's log is a folder of segments `0000000001.log`, `0000000002.log`, ... (higher
number = newer). Each segment has a sidecar `NNNNNNNNNN.idx`: fixed-size little-endian
entries (byte offset, first timestamp in microseconds, first run) written when a record
batch starts at offset 0 and then once at least every `INDEX_INTERVAL` bytes. Timestamps
and runs only grow within a process's log, so a bisection over the entries bounds the
bytes a time or run filter has to read. The index is a hint written after its data:
a missing or short index only makes a query read more, never answer wrong.
"""

from __future__ import annotations

import bisect
import os
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from procler.logs.record import decode_record

SEGMENT_SUFFIX = ".log"
INDEX_SUFFIX = ".idx"
INDEX_ENTRY = struct.Struct("<QqQ")  # offset, first ts (µs), first run
INDEX_INTERVAL = 64 * 1024
BLOCK_SIZE = 64 * 1024  # bytes read per step when reading backwards


@dataclass(frozen=True)
class IndexEntry:
    offset: int
    ts_us: int
    run: int


def segment_path(folder: Path, number: int) -> Path:
    return folder / f"{number:010d}{SEGMENT_SUFFIX}"


def index_path(folder: Path, number: int) -> Path:
    return folder / f"{number:010d}{INDEX_SUFFIX}"


def list_segments(folder: Path) -> list[int]:
    """Segment numbers in the folder, oldest first; [] when the folder does not exist."""
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return []
    return sorted(
        int(name[: -len(SEGMENT_SUFFIX)])
        for name in names
        if name.endswith(SEGMENT_SUFFIX) and name[: -len(SEGMENT_SUFFIX)].isdigit()
    )


def pack_entry(offset: int, ts_us: int, run: int) -> bytes:
    return INDEX_ENTRY.pack(offset, ts_us, run)


def read_index(folder: Path, number: int, size: int) -> list[IndexEntry]:
    """The segment's index entries that point inside its first `size` bytes."""
    try:
        raw = index_path(folder, number).read_bytes()
    except FileNotFoundError:
        return []
    usable = len(raw) - len(raw) % INDEX_ENTRY.size  # a torn last entry is ignored
    return [
        IndexEntry(offset, ts, run)
        for offset, ts, run in INDEX_ENTRY.iter_unpack(raw[:usable])
        if offset < size
    ]


def bounded_end(entries: list[IndexEntry], end: int, ts_hi: int | None, run_hi: int | None) -> int:
    """Offset after which every record is newer than ts_hi or later than run_hi."""
    if ts_hi is not None:
        first_after = bisect.bisect_right([e.ts_us for e in entries], ts_hi)
        if first_after < len(entries):
            end = min(end, entries[first_after].offset)
    if run_hi is not None:
        first_after = bisect.bisect_right([e.run for e in entries], run_hi)
        if first_after < len(entries):
            end = min(end, entries[first_after].offset)
    return end


def last_newline_end(file: BinaryIO, size: int) -> int:
    """Offset just past the last newline in the first `size` bytes (0 if none).

    Bytes after it are a record still being written (or torn by a crash).
    """
    pos = size
    while pos > 0:
        start = max(0, pos - BLOCK_SIZE)
        file.seek(start)
        found = file.read(pos - start).rfind(b"\n")
        if found >= 0:
            return start + found + 1
        pos = start
    return 0


def lines_backward(file: BinaryIO, end: int) -> Iterator[bytes]:
    """Lines of the first `end` bytes, last first; `end` must follow a newline (or be 0)."""
    return (line for _, line in lines_backward_at(file, end))


def lines_backward_at(file: BinaryIO, end: int) -> Iterator[tuple[int, bytes]]:
    """(offset where the line starts, line) of the first `end` bytes, last first."""
    pos = end
    head = b""  # start of the line that continues into the block read before
    first = True
    while pos > 0:
        start = max(0, pos - BLOCK_SIZE)
        file.seek(start)
        data = file.read(pos - start) + head
        pos = start
        parts = data.split(b"\n")
        # just after the newline that ends the last piece: the data's own final newline in
        # the first block, the one right after `head` (not in data) in the others
        after = start + len(data) + (0 if first else 1)
        if first:
            parts.pop()  # the empty piece after the final newline
            first = False
        head = parts[0]
        for part in reversed(parts[1:]):
            after -= len(part) + 1
            yield after, part
    if head:
        yield 0, head


def last_record(file: BinaryIO, end: int) -> dict[str, Any] | None:
    """The last readable record in the first `end` bytes (None for an empty segment)."""
    for line in lines_backward(file, end):
        record = decode_record(line)
        if record is not None:
            return record
    return None
