"""One batch of rows as Arrow arrays, and the masks over it that every filter builds on."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from officecli.fieldcheck.vector.arrays import Typed, strip, typed


class Batch:
    """One batch of rows as Arrow arrays: raw texts, stripped texts, blanks, typed values."""

    def __init__(self, raw: dict[str, pa.Array], types: dict[str, str]) -> None:
        self.raw = raw
        self.size = len(next(iter(raw.values()))) if raw else 0
        self.types = types
        self._stripped: dict[str, pa.Array] = {}
        self._blank: dict[str, pa.Array] = {}
        self._values: dict[str, Typed] = {}
        self._nothing: pa.Array | None = None

    def stripped(self, name: str) -> pa.Array:
        if name not in self._stripped:
            self._stripped[name] = strip(self.raw[name])
        return self._stripped[name]

    def blank(self, name: str) -> pa.Array:
        if name not in self._blank:
            self._blank[name] = pc.equal(pc.utf8_length(self.stripped(name)), 0)
        return self._blank[name]

    def typed(self, name: str) -> Typed:
        if name not in self._values:
            kind = self.types.get(name, "string")
            self._values[name] = typed(self.raw[name], lambda: self.blank(name), kind)
        return self._values[name]

    def values(self, name: str) -> pa.Array:
        return self.typed(name).values

    def unusual(self, *names: str) -> pa.Array:
        """Rows where any of these columns has a cell the Python parsers must read."""
        masks = [self.typed(n).unusual for n in names if self.types.get(n, "string") != "string"]
        return any_of(masks, self)

    def everything(self) -> pa.Array:
        return pc.invert(self.nothing())

    def nothing(self) -> pa.Array:
        if self._nothing is None:
            self._nothing = pc.is_null(next(iter(self.raw.values())))  # cells are never null
        return self._nothing


def any_of(masks: list[pa.Array], b: Batch) -> pa.Array:
    if not masks:
        return b.nothing()
    out = masks[0]
    for mask in masks[1:]:
        out = pc.or_(out, mask)
    return out


Filter = Callable[[Batch], pa.Array]  # a rule's mask of candidate rows


def close_enough(a: Any, b: Any) -> pa.Array:
    """abs(a - b) <= 1e-9 * (1.0 + abs(a) + abs(b)), as the Python engine computes it."""
    scale = pc.multiply(pc.add(pc.add(1.0, pc.abs(a)), pc.abs(b)), 1e-9)
    return pc.less_equal(pc.abs(pc.subtract(a, b)), scale)
