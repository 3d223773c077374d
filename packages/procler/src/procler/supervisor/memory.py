"""Handing freed memory back to the system after a burst.

When thousands of event subscribers leave at once, Python frees what they held, but
glibc's allocator keeps the pages for later: the supervisor stayed at 130 MB after 5,000
subscribers had come and gone (40 MB before them). `release_soon` asks it, once the
burst is over, to return what is free (malloc_trim); it is a no-op where the C library
has no malloc_trim (musl, macOS).
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc

QUIET = 1.0  # seconds without a new call before the memory is released

_pending: asyncio.TimerHandle | None = None


def release_soon() -> None:
    """Release free memory QUIET seconds from now (a later call moves it later)."""
    global _pending
    if _pending is not None:
        _pending.cancel()
    _pending = asyncio.get_running_loop().call_later(QUIET, release)


def release() -> None:
    global _pending
    _pending = None
    gc.collect()  # cycles first: what they hold is then free too
    trim = getattr(_libc(), "malloc_trim", None)
    if trim is not None:
        trim(0)


def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    return ctypes.CDLL(name) if name else None
