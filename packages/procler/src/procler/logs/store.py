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

When output cannot be written (a read-only or full disk), the batch is dropped, the
process is retried RETRY_AFTER later, and `unwritable` says why, for `status` to show.

Callers keep run numbers non-decreasing per process (across supervisor restarts too):
run filters stop reading at the first record older than the run asked for.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

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
RETRY_AFTER = 1.0  # seconds before a process whose output could not be written is tried again
_PROCESS_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")
_OPEN_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_CLOEXEC", 0)


def is_folder_name(process: str) -> bool:
    """Whether `process` can name a log folder: no way out of the store (`..`, `/`), and
    no longer than a file name may be (255 bytes)."""
    return bool(_PROCESS_NAME.fullmatch(process)) and len(process.encode()) <= 255


def process_folder(directory: Path, process: str) -> Path:
    """The folder holding a process's segments; rejects names that could escape it."""
    if not is_folder_name(process):
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
        self.unwritable: dict[str, str] = {}  # process -> why its output is not being stored
        self._retry_at: dict[str, float] = {}

    def append(
        self, process: str, ts: float, stream: str, run: int, text: str, partial: bool = False
    ) -> None:
        """Buffer one line read at `ts` (Unix seconds) from `stream` (see append_many).

        Consecutive lines sharing a time, stream and run (one pipe read) are collected and
        encoded together, so the per-line path costs little more than append_many.
        """
        writer = self._writer(process)
        if writer is None:
            return
        key = (max(int(ts * 1_000_000), writer.last_ts), stream, run, partial)
        try:
            if key != writer.group_key:
                self._seal(writer)
                writer.group_key = key
            writer.group.append(text)
            if len(writer.group) >= GROUP_LIMIT:
                self._seal(writer)
        except OSError as exc:
            self._failed(process, writer, exc)

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
        writer = self._writer(process)
        if writer is None:
            return
        try:
            self._seal(writer)
            if texts:
                ts_us = max(int(ts * 1_000_000), writer.last_ts)
                self._add(writer, ts_us, stream, run, texts, partial)
        except OSError as exc:
            self._failed(process, writer, exc)

    def flush(self) -> None:
        """Write every buffered line to its segment file (cheap when nothing is buffered)."""
        for process, writer in list(self._writers.items()):
            try:
                self._seal(writer)
                wrote = bool(writer.buffer)
                self._write(writer)
            except OSError as exc:
                self._failed(process, writer, exc)
                continue
            if wrote:
                self.unwritable.pop(process, None)

    def prepare(self, process: str) -> None:
        """Open the process's files now (it is starting), so that its first line, often
        the one a readiness check waits for, does not wait for them to open."""
        self._writer(process)

    def _writer(self, process: str) -> _Writer | None:
        """The process's writer, opened on first use; None while its output cannot be stored."""
        writer = self._writers.get(process)
        if writer is not None:
            return writer
        if time.monotonic() < self._retry_at.get(process, 0.0):
            return None
        try:
            return self._open(process)
        except OSError as exc:
            self._failed(process, None, exc)
            return None

    def _failed(self, process: str, writer: _Writer | None, exc: OSError) -> None:
        """Drop the writer and its buffered lines (memory stays bounded) and say why."""
        if writer is not None:
            self._writers.pop(process, None)
            _close_fds(writer)
        where = exc.filename or process_folder(self.directory, process)
        self.unwritable[process] = f"output is not being stored: {exc.strerror} ({where})"
        self._retry_at[process] = time.monotonic() + RETRY_AFTER

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
            _close_fds(writer)
        self._writers.clear()

    def __enter__(self) -> LogStore:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def _open(self, process: str) -> _Writer:
        """Continue the newest segment of a process, first cutting a record torn by a crash."""
        folder = process_folder(self.directory, process)
        self.directory.mkdir(mode=0o700, exist_ok=True)
        folder.mkdir(mode=0o700, exist_ok=True)
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
        # 0600: a process's output may carry secrets.
        writer.data_fd = os.open(segment_path(writer.folder, number), _OPEN_FLAGS, 0o600)
        try:
            writer.index_fd = os.open(index_path(writer.folder, number), _OPEN_FLAGS, 0o600)
        except OSError:
            _close_fds(writer)
            raise
        writer.size = 0
        writer.since_index = INDEX_INTERVAL
        if number not in writer.segments:
            writer.segments.append(number)

    def _rotate(self, writer: _Writer) -> None:
        """Close the full segment, start the next one and delete the oldest beyond max_files."""
        self._write(writer)  # followers rely on the old segment being complete first
        _close_fds(writer)
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


def _close_fds(writer: _Writer) -> None:
    """Close a writer's descriptors once (-1 after: a reused number is never closed twice)."""
    for fd in (writer.data_fd, writer.index_fd):
        if fd >= 0:
            with contextlib.suppress(OSError):
                os.close(fd)
    writer.data_fd = writer.index_fd = -1
