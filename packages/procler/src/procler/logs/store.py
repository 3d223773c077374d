"""LogStore: the supervisor's buffered, append-only writer of per-process log segments.

One store per project, used from one process (the supervisor). `append`/`append_many`
only encode into memory; `flush()` writes each process's buffer with one `os.write` on an
O_APPEND descriptor, then its index entries. The supervisor calls `flush()` every
50-100 ms and on shutdown: once written, lines survive a `kill -9` of the supervisor
(they are in the kernel's page cache; no fsync, which only matters for power loss).
A process buffering more than `flush_threshold` bytes is written at once, so a burst
never grows memory beyond that.

Rotation: a record that would push the active segment past `max_size` starts a new
segment instead, and the oldest segments beyond `max_files` are deleted. So the segments
of a process hold at most `max_size * max_files` bytes (plus one record bigger than
`max_size`, if ever one is written). Record format: see `procler.logs.record`.

Callers keep run numbers non-decreasing per process (across supervisor restarts too):
run filters stop reading at the first record older than the run asked for.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from procler.logs.record import encode_records
from procler.logs.segment import (
    INDEX_ENTRY,
    INDEX_INTERVAL,
    index_path,
    last_newline_end,
    last_record,
    list_segments,
    pack_entry,
    read_index,
    segment_path,
)

DEFAULT_MAX_SIZE = 10 * 1024 * 1024
DEFAULT_MAX_FILES = 5
DEFAULT_FLUSH_THRESHOLD = 1024 * 1024
GROUP_LIMIT = 1024  # lines collected by `append` before they are encoded
_PROCESS_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")
_OPEN_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_CLOEXEC", 0)


def process_folder(directory: Path, process: str) -> Path:
    """The folder holding a process's segments; rejects names that could escape it."""
    if not _PROCESS_NAME.fullmatch(process):
        raise ValueError(f"invalid process name for a log folder: {process!r}")
    return directory / process


@dataclass
class _Writer:
    """Write state of one process's newest segment."""

    folder: Path
    segments: list[int]
    number: int = 0
    data_fd: int = -1
    index_fd: int = -1
    size: int = 0  # bytes of the segment, written and buffered
    since_index: int = INDEX_INTERVAL  # forces an index entry at a segment's first record
    last_ts: int = 0
    buffer: list[bytes] = field(default_factory=list)
    buffered: int = 0
    index_buffer: list[bytes] = field(default_factory=list)
    group: list[str] = field(default_factory=list)  # lines from `append`, not yet encoded
    group_key: tuple[int, str, int, bool] = (0, "", 0, False)  # their ts, stream, run, partial


class LogStore:
    """Append-only, rotated, indexed log files of a project's processes."""

    def __init__(
        self,
        directory: Path,
        max_size: int = DEFAULT_MAX_SIZE,
        max_files: int = DEFAULT_MAX_FILES,
        *,
        flush_threshold: int = DEFAULT_FLUSH_THRESHOLD,
    ) -> None:
        if max_size < 1 or max_files < 1:
            raise ValueError("max_size and max_files must be at least 1")
        self.directory = Path(directory)
        self.max_size = max_size
        self.max_files = max_files
        self.flush_threshold = flush_threshold
        self._writers: dict[str, _Writer] = {}

    def append(
        self, process: str, ts: float, stream: str, run: int, text: str, partial: bool = False
    ) -> None:
        """Buffer one line read at `ts` (Unix seconds) from `stream` (see append_many).

        Consecutive lines sharing a time, stream and run (one pipe read) are collected and
        encoded together, so the per-line path costs little more than append_many.
        """
        writer = self._writers.get(process) or self._open(process)
        key = (max(int(ts * 1_000_000), writer.last_ts), stream, run, partial)
        if key != writer.group_key:
            self._seal(writer)
            writer.group_key = key
        writer.group.append(text)
        if len(writer.group) >= GROUP_LIMIT:
            self._seal(writer)

    def append_many(
        self,
        process: str,
        ts: float,
        stream: str,
        run: int,
        texts: list[str],
        partial: bool = False,
    ) -> None:
        """Buffer lines that share a read time, stream and run, in order.

        `partial=True` marks the texts as non-final chunks of a long line.
        Timestamps are made non-decreasing per process, so the index can bisect them.
        """
        writer = self._writers.get(process) or self._open(process)
        self._seal(writer)
        if texts:
            self._add(writer, max(int(ts * 1_000_000), writer.last_ts), stream, run, texts, partial)

    def flush(self) -> None:
        """Write every buffered line to its segment file (cheap when nothing is buffered)."""
        for writer in self._writers.values():
            self._seal(writer)
            self._write(writer)

    def _seal(self, writer: _Writer) -> None:
        """Encode the lines collected by `append`."""
        if writer.group:
            texts, writer.group = writer.group, []
            ts_us, stream, run, partial = writer.group_key
            self._add(writer, ts_us, stream, run, texts, partial)

    def _add(
        self, writer: _Writer, ts_us: int, stream: str, run: int, texts: list[str], partial: bool
    ) -> None:
        data = encode_records(ts_us, stream, run, texts, partial)
        if writer.size and writer.size + len(data) > self.max_size:
            if len(texts) > 1:  # cut the batch where the segment fills up
                for text in texts:
                    self._add(writer, ts_us, stream, run, [text], partial)
                return
            self._rotate(writer)
        writer.last_ts = ts_us
        if writer.since_index >= INDEX_INTERVAL:
            writer.index_buffer.append(pack_entry(writer.size, ts_us, run))
            writer.since_index = 0
        writer.buffer.append(data)
        writer.buffered += len(data)
        writer.size += len(data)
        writer.since_index += len(data)
        if writer.buffered >= self.flush_threshold:
            self._write(writer)

    def clear(self, process: str) -> None:
        """Remove every segment of a process; its next line starts a new first segment."""
        writer = self._writers.pop(process, None)
        if writer is not None:
            os.close(writer.data_fd)
            os.close(writer.index_fd)  # buffered lines go with the files they were for
        shutil.rmtree(process_folder(self.directory, process), ignore_errors=True)

    def close(self) -> None:
        """Flush, then release the file descriptors; the store can be used again after."""
        self.flush()
        for writer in self._writers.values():
            os.close(writer.data_fd)
            os.close(writer.index_fd)
        self._writers.clear()

    def __enter__(self) -> LogStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _open(self, process: str) -> _Writer:
        """Continue the newest segment of a process, first cutting a record torn by a crash."""
        folder = process_folder(self.directory, process)
        folder.mkdir(parents=True, exist_ok=True)
        writer = _Writer(folder, list_segments(folder))
        if not writer.segments:
            self._start_segment(writer, 1)
        else:
            number = writer.segments[-1]
            path = segment_path(folder, number)
            with path.open("rb") as file:
                end = last_newline_end(file, os.fstat(file.fileno()).st_size)
                os.truncate(path, end)
                last = last_record(file, end)
                writer.last_ts = 0 if last is None else int(last["ts"])
            entries = read_index(folder, number, end)
            # Drop entries of the torn record (and a torn entry) so new ones follow in order.
            with contextlib.suppress(FileNotFoundError):
                os.truncate(index_path(folder, number), len(entries) * INDEX_ENTRY.size)
            self._start_segment(writer, number)
            writer.size = end
            if entries:
                writer.since_index = end - entries[-1].offset
        self._writers[process] = writer
        return writer

    def _start_segment(self, writer: _Writer, number: int) -> None:
        writer.number = number
        writer.data_fd = os.open(segment_path(writer.folder, number), _OPEN_FLAGS, 0o644)
        writer.index_fd = os.open(index_path(writer.folder, number), _OPEN_FLAGS, 0o644)
        writer.size = 0
        writer.since_index = INDEX_INTERVAL
        if number not in writer.segments:
            writer.segments.append(number)

    def _rotate(self, writer: _Writer) -> None:
        """Close the full segment, start the next one and delete the oldest beyond max_files."""
        self._write(writer)  # followers rely on the old segment being complete first
        os.close(writer.data_fd)
        os.close(writer.index_fd)
        self._start_segment(writer, writer.number + 1)
        while len(writer.segments) > self.max_files:
            oldest = writer.segments.pop(0)
            segment_path(writer.folder, oldest).unlink(missing_ok=True)
            index_path(writer.folder, oldest).unlink(missing_ok=True)

    @staticmethod
    def _write(writer: _Writer) -> None:
        """Write the buffered records, then their index entries (the index never leads)."""
        if writer.buffer:
            data = b"".join(writer.buffer)
            # Taken before writing: on a disk error this batch is dropped, memory stays bounded.
            writer.buffer, writer.buffered = [], 0
            _write_all(writer.data_fd, data)
        if writer.index_buffer:
            entries = b"".join(writer.index_buffer)
            writer.index_buffer = []
            _write_all(writer.index_fd, entries)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
