"""Both workbooks of a diff read at once: the before one in a forked child process while
this process reads the after one (the reading is CPU-bound Python, so a thread would not
overlap it). Small workbooks, a machine with one core, or a process running other threads
(an embedding server) are read one after the other: the fork and the transfer of the
result cost more than they save there, and forking beside threads is unsafe.

Errors stay exactly those of the sequential read, before's first: a child that fails for
any reason hands back nothing, and `before` is then read again here, raising its own error.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_all_start_methods, get_context
from typing import TypeVar

T = TypeVar("T")
PARALLEL_MIN_BYTES = 256 * 1024  # both files at least this big on disk before forking


def _read_or_none(read: Callable[[str], T], path: str) -> T | None:
    try:
        return read(path)
    except Exception:  # noqa: BLE001 - the parent reads it again and raises the real error
        return None


def _worth_forking(before: str, after: str) -> bool:
    if (os.cpu_count() or 1) < 2 or "fork" not in get_all_start_methods():
        return False
    if threading.active_count() > 1:  # forking a threaded process may deadlock the child
        return False
    try:
        return min(os.path.getsize(before), os.path.getsize(after)) >= PARALLEL_MIN_BYTES
    except OSError:
        return False  # the sequential read says what is wrong with the path


def read_pair(read: Callable[[str], T], before: str, after: str) -> tuple[T, T]:
    """`read(before), read(after)`, concurrently when that is worth it."""
    if not _worth_forking(before, after):
        return read(before), read(after)
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("fork")) as pool:
        future = pool.submit(_read_or_none, read, before)
        try:
            new = read(after)
        except Exception:
            if future.result() is None:
                read(before)  # before's error comes first, as in the sequential read
            raise
        old = future.result()
    return (read(before) if old is None else old), new
