"""ForkedCall's thread count as a lone pytest process would give it, under pytest-xdist too.

ForkedCall forks only when no other thread runs; an xdist worker has a thread of its own
from the start (execnet's I/O thread, which `threading` does not list). Counted from the
test's start, the threads ForkedCall sees are those the test itself starts."""

from __future__ import annotations

import pytest

from officecli.readers import forked


def count_threads_from_here(monkeypatch: pytest.MonkeyPatch) -> None:
    count = forked._threads
    before = count()
    monkeypatch.setattr(forked, "_threads", lambda: count() - before + 1)
