"""The two workbooks of a diff read at once: the before one in a forked child, the after
one here (reading holds the GIL, so only a process reads on the other core).

The child runs the very read this process would (its limits: the zip checks, --max-cells)
and hands back the grids by marshal (lists, tuples, sets, dicts of str and int: several
times faster than pickling objects). The outcome is the sequential one: the before file's
error when both fail, the after file's when only it does; with no answer from the child
the before file is read here. On a machine whose cores were all busy with other work over
the last minute, a second process finds no core of its own and its extra work (packing,
copied pages) only adds to the run: then both are read here, one after the other.
"""

from __future__ import annotations

import marshal
import os
from collections.abc import Callable
from dataclasses import fields
from typing import TypeVar

from officecli.readers.forked import ForkedCall
from officecli.readers.grid import SheetGrid

T = TypeVar("T")
ReadGrids = Callable[[str], list[SheetGrid]]
GRID_FIELDS = tuple(f.name for f in fields(SheetGrid))


def pack_grids(grids: list[SheetGrid]) -> bytes:
    return marshal.dumps([tuple(getattr(g, name) for name in GRID_FIELDS) for g in grids])


def unpack_grids(data: bytes) -> list[SheetGrid]:
    return [SheetGrid(*values) for values in marshal.loads(data)]  # our own child wrote it


def read_pair(
    read: ReadGrids, finish: Callable[[list[SheetGrid]], T], before: str, after: str
) -> tuple[T, T]:
    """finish(grids) of before and of after, or the error reading them in order would
    raise; the after grids are finished while the child packs the before ones."""
    if not spare_core():
        return finish(read(before)), finish(read(after))
    worker = ForkedCall(lambda: pack_grids(read(before)))
    try:
        try:
            new = finish(read(after))
        except Exception:
            _before(worker, read, before)  # its error comes first, as it would in order
            raise
        return finish(_before(worker, read, before)), new
    finally:
        worker.close()


def spare_core() -> bool:
    """Whether the load average of the last minute leaves a core free of other work: below
    the cores plus one, since it counts this run too when it is one of a series."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on every system
        cores = os.cpu_count() or 1
    try:
        return os.getloadavg()[0] < cores + 1
    except (AttributeError, OSError):
        return True


def _before(worker: ForkedCall, read: ReadGrids, before: str) -> list[SheetGrid]:
    data = worker.answer()
    return read(before) if data is None else unpack_grids(data)
