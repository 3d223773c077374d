"""`unique` over batches: each batch's keys are kept as Arrow arrays (not a Python object
per row, so memory is that of the keys themselves), and compared once, by hashing, after
the last batch."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from officecli.fieldcheck.values import CONVERTERS
from officecli.fieldcheck.vector.batch import Batch


class UniqueKeys:
    """The keys of one unique rule by record; `repeats` says which records repeat one."""

    def __init__(self, names: list[str], typed: list[bool], kinds: list[str]) -> None:
        self.names, self.typed, self.kinds = names, typed, kinds
        self.keys: list[pa.Array] = []
        self.records: list[pa.Array] = []

    def _part(self, b: Batch, name: str, typed: bool, kind: str) -> tuple[pa.Array, pa.Array]:
        """(values, bad): typed values read exactly (unusual cells by the Python parser),
        or the stripped text; null for a blank cell."""
        if not typed:
            return pc.if_else(b.blank(name), None, b.stripped(name)), b.nothing()
        values, unusual = b.typed(name).values, b.typed(name).unusual
        if pc.any(unusual).as_py():
            where = pc.indices_nonzero(unusual)
            texts = pc.take(b.raw[name], where).to_pylist()
            read = [CONVERTERS[kind](t) for t in texts]
            values = pc.replace_with_mask(values, unusual, pa.array(read, values.type))
            bad = pc.replace_with_mask(b.nothing(), unusual, pa.array([v is None for v in read]))
        else:
            bad = b.nothing()
            if pa.types.is_floating(values.type):
                values = pc.add(values, 0.0)  # -0.0 and 0.0 are one key, as in Python
        return values, bad

    def add(self, b: Batch, done: int) -> None:
        """Keep the keys of this batch's rows (`done` records came before it)."""
        parts, bad = [], b.nothing()
        for name, typed, kind in zip(self.names, self.typed, self.kinds, strict=True):
            values, wrong = self._part(b, name, typed, kind)
            parts.append(values)
            bad = pc.or_(bad, wrong)
        key = parts[0] if len(parts) == 1 else _combined(parts)
        if key.null_count == 0 and not pc.any(bad).as_py():  # the usual case: every row
            self.keys.append(key)
            self.records.append(counting(len(key), done))
            return
        rows = pc.indices_nonzero(pc.and_(pc.invert(bad), pc.is_valid(key)))
        self.keys.append(pc.take(key, rows))
        self.records.append(pc.add(pc.cast(rows, pa.int64()), done))

    def repeats(self) -> tuple[list[int], list[int]]:
        """(records repeating a key, the record first holding it), in record order.

        The keys are sorted (stably, so equal keys stay in record order) and compared with
        their neighbour: a third of the memory a hash table of a million keys takes."""
        if not self.keys:
            return [], []
        keys = pa.chunked_array(self.keys)
        records = pa.chunked_array(self.records)
        self.keys, self.records = [], []
        order = pc.sort_indices(keys)  # stable
        ranked = pc.take(keys, order).combine_chunks()
        size = len(ranked)
        same = pc.equal(ranked.slice(1), ranked.slice(0, size - 1)) if size > 1 else None
        if same is None or not pc.any(same).as_py():
            return [], []  # the usual case: no key repeats
        positions = counting(size - 1, 1)  # position in `ranked` of each right neighbour
        # For each position, the start of its run of equal keys: the last position where
        # the key changed, carried forward.
        starts = pc.cumulative_max(pc.if_else(same, 0, positions))
        again = pc.indices_nonzero(same)
        repeated = pc.take(order, pc.take(positions, again))
        first = pc.take(order, pc.take(starts, again))
        rows = pc.take(records, repeated).combine_chunks()
        firsts = pc.take(records, first).combine_chunks()
        by_row = pc.sort_indices(rows)
        return pc.take(rows, by_row).to_pylist(), pc.take(firsts, by_row).to_pylist()


def _combined(parts: list[pa.Array]) -> pa.Array:
    """Several columns as one text key: each part as `length:text` (blank as `-`), so two
    keys are equal exactly when all their parts are; null when every part is blank."""
    texts = []
    for part in parts:
        text = part if pa.types.is_string(part.type) else pc.cast(part, pa.string())
        length = pc.cast(pc.utf8_length(text), pa.string())
        texts.append(pc.fill_null(pc.binary_join_element_wise(length, text, ":"), "-"))
    every_blank = _all([pc.is_null(p) for p in parts])
    joined = pc.binary_join_element_wise(*texts, "|")
    return pc.if_else(every_blank, None, joined)


def _all(masks: list[pa.Array]) -> pa.Array:
    out = masks[0]
    for mask in masks[1:]:
        out = pc.and_(out, mask)
    return out


def counting(n: int, start: int = 0) -> pa.Array:
    """start, start + 1, ... (n values, int64), built in Arrow."""
    return (
        pc.add(pc.subtract(pc.cumulative_sum(pa.repeat(1, n)), 1), start)
        if n
        else pa.array([], pa.int64())
    )
