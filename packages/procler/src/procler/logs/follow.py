"""Reading a process's log forward from a position as it grows, across rotations."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, BinaryIO

from procler.logs.record import decode_record
from procler.logs.segment import last_newline_end, list_segments, segment_path

Position = tuple[int, int]  # segment number, byte offset just after a newline


def end_position(folder: Path) -> Position:
    """Where the complete records of the log end right now ((0, 0) for no log yet)."""
    numbers = list_segments(folder)
    for number in reversed(numbers):
        try:
            with segment_path(folder, number).open("rb") as file:
                return number, last_newline_end(file, os.fstat(file.fileno()).st_size)
        except FileNotFoundError:  # deleted by rotation just now
            continue
    return 0, 0


class SegmentFollower:
    """Yields the records written after a position, one poll at a time.

    It keeps the segment it reads open, so a rotation that deletes it does not lose the
    rest; it moves on only once a newer segment exists and the current one is read to
    its end (the writer completes a segment before starting the next).
    """

    def __init__(self, folder: Path, start: Position) -> None:
        self.folder = folder
        self.number, self.offset = start
        self._file: BinaryIO | None = None
        self._pending = b""

    def poll(self) -> list[dict[str, Any]]:
        """Records appended since the last poll, oldest first."""
        records: list[dict[str, Any]] = []
        while True:
            if self._file is None and not self._open_next():
                return records
            assert self._file is not None
            records += self._read_new()
            if not any(n > self.number for n in list_segments(self.folder)):
                return records
            records += self._read_new()  # what was written before the rotation
            self.close()
            self.number, self.offset, self._pending = self.number + 1, 0, b""

    @property
    def position(self) -> Position:
        """Just after the last complete record read (where reading resumes)."""
        return self.number, self.offset - len(self._pending)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def _open_next(self) -> bool:
        """Open the current segment, or the oldest newer one when it is gone."""
        for number in list_segments(self.folder):
            if number < self.number:
                continue
            if number > self.number:  # ours was deleted (or never existed): start over there
                self.number, self.offset, self._pending = number, 0, b""
            try:
                self._file = segment_path(self.folder, number).open("rb")
            except FileNotFoundError:
                continue
            self._file.seek(self.offset)
            return True
        return False

    def _read_new(self) -> list[dict[str, Any]]:
        assert self._file is not None
        data = self._file.read()
        if not data:
            return []
        self.offset += len(data)
        data = self._pending + data
        cut = data.rfind(b"\n") + 1
        self._pending = data[cut:]
        decoded = (decode_record(line) for line in data[:cut].split(b"\n")[:-1])
        return [record for record in decoded if record is not None]
