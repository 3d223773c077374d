"""The processes' output on its way to the log store: appended at once, flushed soon after.

Flushing FLUSH_EVERY after output arrives (and sleeping while all is quiet) bounds what a
kill -9 of the supervisor can lose without a write per line.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from procler.contexts.base import OutputBatch
from procler.logs.store import LogStore

FLUSH_EVERY = 0.05  # seconds between log flushes: what a kill -9 can lose at most


class OutputLog:
    def __init__(self) -> None:
        self.store: LogStore | None = None
        self._pending = asyncio.Event()
        self._flusher: asyncio.Task[None] | None = None

    def open(self, directory: Path, max_size: int, max_files: int) -> None:
        """Open the store once, with the first config's limits."""
        if self.store is None:
            self.store = LogStore(directory, max_size, max_files)

    def reopen(self, directory: Path) -> None:
        """Start new log files (the old directory was removed), with the same limits."""
        if self.store is not None:
            old, self.store = (
                self.store,
                LogStore(directory, self.store.max_size, self.store.max_files),
            )
            old.close()

    def append(self, name: str, run: int, batch: OutputBatch) -> None:
        assert self.store is not None
        self.store.append_many(name, batch.ts, batch.stream, run, batch.texts, batch.partial)
        self._pending.set()

    def prepare(self, name: str) -> None:
        """A process is starting: its log files are opened before it prints."""
        if self.store is not None:
            self.store.prepare(name)

    def unstored(self, name: str) -> str | None:
        """Why this process's output is not being stored at the moment (None: it is)."""
        return self.store.unwritable.get(name) if self.store is not None else None

    def clear(self, name: str) -> None:
        """Remove every stored line of one process (restart --clear-logs)."""
        if self.store is not None:
            self.store.clear(name)

    def start(self) -> None:
        self._flusher = asyncio.create_task(self._flush_soon())

    async def _flush_soon(self) -> None:
        while True:
            await self._pending.wait()
            await asyncio.sleep(FLUSH_EVERY)
            self._pending.clear()
            if self.store is not None:
                self.store.flush()

    def close(self) -> None:
        if self._flusher is not None:
            self._flusher.cancel()
        if self.store is not None:
            self.store.close()
