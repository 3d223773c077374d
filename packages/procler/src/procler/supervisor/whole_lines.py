"""Output put back into whole lines for the patterns that watch it (a log health check,
`ready_log_line`).

Capture cuts a line longer than 64 KiB into chunks (procler.logs.capture), and a chunk is
not a line: `^a+$` matched the first 64 KiB of `'a' * 200000 + '!'`, a false `healthy`.
Chunks are joined here, per stream, until the line ends, and the pattern sees the whole
line. Holding a line costs memory, so a line longer than MAX_MATCHED_LINE characters is
dropped as it grows and never matches: a process cannot make the supervisor hold more than
that per stream.
"""

from __future__ import annotations

from procler.contexts.base import OutputBatch

MAX_MATCHED_LINE = 1024 * 1024  # characters: 16 chunks of ASCII


class WholeLines:
    """Batches in (chunks flagged partial), whole lines out."""

    def __init__(self) -> None:
        self._held: dict[str, list[str]] = {}  # stream -> the chunks of its unfinished line
        self._size: dict[str, int] = {}  # stream -> characters of that line so far

    def take(self, batch: OutputBatch) -> list[str]:
        """The lines `batch` completes, a line over MAX_MATCHED_LINE left out."""
        stream = batch.stream
        if stream not in self._size:
            if not batch.partial:
                return batch.texts  # the common case: whole lines, nothing held
            self._held[stream], self._size[stream] = [], 0
        first, *rest = batch.texts
        size = self._size[stream] + len(first)
        held = self._held[stream]
        if size <= MAX_MATCHED_LINE:
            held.append(first)
        else:
            held.clear()  # too long to match: keep counting, hold nothing
        if batch.partial:
            self._size[stream] = size
            return []
        del self._held[stream], self._size[stream]
        return ["".join(held), *rest] if size <= MAX_MATCHED_LINE else rest
