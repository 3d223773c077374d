"""Turning a child's pipe into timestamped lines without ever blocking the child.

The reader takes whatever the pipe holds (up to `READ_SIZE` bytes) in one `read`, never
`readline`, so a child writing faster than lines can be handled only waits while the
kernel pipe and asyncio's bounded buffer are full, and the store drains them.

Documented choices (the issue leaves them open):
- Lines are split on `\\n`; invalid UTF-8 becomes U+FFFD; a final line without newline
  is kept when the pipe closes.
- `\\r` (progress bars): trailing `\\r`s are dropped (so CRLF is a newline), then only the
  text after the line's last `\\r` is kept: `10%\\r50%\\r100%\\n` is stored as `100%`. An
  unfinished line is collapsed the same way as it arrives, so a bar that redraws for
  hours without a newline holds at most one redraw in memory.
- A line of more than `CHUNK_LIMIT` (64 KiB) UTF-8 bytes is kept whole, as consecutive
  chunks of at most 64 KiB cut at character boundaries; every chunk but the last has
  `partial=True` (stored as `"p":1`, answered as `"partial": true`). Chunks of a line
  not yet finished are emitted as they fill up, so memory stays bounded.
- All lines of one read share the time of that read.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from procler.logs.record import STREAM_CODES, Stream
from procler.logs.store import LogStore

READ_SIZE = 256 * 1024
CHUNK_LIMIT = 64 * 1024


@dataclass(frozen=True, slots=True)
class LineChunk:
    """One line (or one chunk of a long line) of a child's output."""

    stream: Stream
    ts: float  # Unix seconds when the supervisor read it
    text: str
    partial: bool = False  # more chunks of the same line follow


@dataclass(frozen=True, slots=True)
class LineBatch:
    """Consecutive lines from one read; a partial batch holds exactly one chunk."""

    stream: Stream
    ts: float
    texts: list[str]
    partial: bool = False


Group = tuple[list[str], bool]  # texts, partial


class LineSplitter:
    """Bytes in, lines out (pure, no I/O): the rules in the module docstring."""

    def __init__(self) -> None:
        self._pending = b""  # the unfinished line

    def feed(self, data: bytes) -> list[Group]:
        """Lines completed by `data`, in order."""
        buffer = self._pending + data if self._pending else data
        groups: list[Group] = []
        cut = buffer.rfind(b"\n")
        if cut >= 0:
            groups = _complete_lines(buffer[:cut])
            buffer = buffer[cut + 1 :]
        self._pending = _hold(buffer, groups)
        return groups

    def finish(self) -> list[Group]:
        """The final line without newline, if any, once the pipe has closed."""
        pending, self._pending = self._pending, b""
        return _complete_lines(pending) if pending else []


def _last_rewrite(line: str) -> str:
    """What a terminal shows of a line redrawn with carriage returns."""
    line = line.rstrip("\r")
    return line[line.rfind("\r") + 1 :]


def _char_cut(data: bytes, limit: int) -> int:
    """A cut at most `limit` bytes in that does not split a UTF-8 sequence."""
    cut = limit
    while cut > limit - 3 and data[cut] & 0xC0 == 0x80:
        cut -= 1
    return cut


def _complete_lines(data: bytes) -> list[Group]:
    """Split finished lines (without the last newline) into groups, chunking long lines."""
    text = data.decode("utf-8", "replace")
    lines = text.split("\n")
    if "\r" in text:
        lines = [_last_rewrite(line) if "\r" in line else line for line in lines]
    # 4 bytes per character at most: below CHUNK_LIMIT // 4 characters no line can be long.
    if len(data) <= CHUNK_LIMIT or max(map(len, lines)) <= CHUNK_LIMIT // 4:
        return [(lines, False)]
    groups: list[Group] = []
    plain: list[str] = []
    for line in lines:
        encoded = line.encode("utf-8") if len(line) > CHUNK_LIMIT // 4 else b""
        if len(encoded) <= CHUNK_LIMIT:
            plain.append(line)
            continue
        if plain:
            groups.append((plain, False))
        while len(encoded) > CHUNK_LIMIT:
            cut = _char_cut(encoded, CHUNK_LIMIT)
            groups.append(([encoded[:cut].decode("utf-8")], True))
            encoded = encoded[cut:]
        plain = [encoded.decode("utf-8")]
    groups.append((plain, False))
    return groups


def _hold(pending: bytes, groups: list[Group]) -> bytes:
    """Keep an unfinished line bounded: collapse `\\r` redraws, emit full 64 KiB chunks."""
    if b"\r" in pending:
        redraw = pending.rstrip(b"\r").rfind(b"\r")
        pending = pending[redraw + 1 :]
    while len(pending) > CHUNK_LIMIT:
        cut = _char_cut(pending, CHUNK_LIMIT)
        groups.append(([pending[:cut].decode("utf-8", "replace")], True))
        pending = pending[cut:]
    return pending


async def read_batches(
    reader: asyncio.StreamReader, stream: str, clock: Callable[[], float] = time.time
) -> AsyncIterator[LineBatch]:
    """Batches of lines from a pipe until EOF (the fast path; see read_lines)."""
    if stream not in STREAM_CODES:
        raise ValueError(f"stream must be 'stdout' or 'stderr', not {stream!r}")
    name: Stream = "stdout" if stream == "stdout" else "stderr"
    splitter = LineSplitter()
    while True:
        data = await reader.read(READ_SIZE)
        ts = clock()
        for texts, partial in splitter.feed(data) if data else splitter.finish():
            yield LineBatch(name, ts, texts, partial)
        if not data:
            return


async def read_lines(reader: asyncio.StreamReader, stream: str) -> AsyncIterator[LineChunk]:
    """Lines from a pipe until EOF, one at a time (same rules as read_batches)."""
    async for batch in read_batches(reader, stream):
        for text in batch.texts:
            yield LineChunk(batch.stream, batch.ts, text, batch.partial)


async def capture_stream(
    reader: asyncio.StreamReader,
    stream: str,
    store: LogStore,
    process: str,
    run: int,
    on_batch: Callable[[LineBatch], None] | None = None,
) -> int:
    """Store every line of a pipe until EOF; returns the number of records stored.

    `on_batch` sees each batch after it is buffered (e.g. a health check's regex).
    The caller still flushes the store periodically.
    """
    count = 0
    async for batch in read_batches(reader, stream):
        store.append_many(process, batch.ts, batch.stream, run, batch.texts, batch.partial)
        count += len(batch.texts)
        if on_batch is not None:
            on_batch(batch)
    return count
