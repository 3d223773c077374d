"""Pairing two sequences: by key, by content similarity, and the moves (outside the LIS)."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from operator import itemgetter

MAX_PAIRS = 250_000  # similarity scores computed at most; beyond, only nearby positions
SIMILARITY_THRESHOLD = 0.5


def longest_increasing(seq: Sequence[int]) -> set[int]:
    """Positions in `seq` of one longest strictly increasing subsequence (O(n log n))."""
    tails: list[int] = []  # smallest tail value of an increasing run of each length
    tail_at: list[int] = []  # its position in seq
    before: list[int] = [-1] * len(seq)
    for i, value in enumerate(seq):
        if tails and value > tails[-1]:  # the common case (rows in order): no search
            before[i] = tail_at[-1]
            tails.append(value)
            tail_at.append(i)
            continue
        k = bisect.bisect_left(tails, value)
        if k == len(tails):
            tails.append(value)
            tail_at.append(i)
        else:
            tails[k] = value
            tail_at[k] = i
        before[i] = tail_at[k - 1] if k else -1
    keep: set[int] = set()
    i = tail_at[-1] if tail_at else -1
    while i >= 0:
        keep.add(i)
        i = before[i]
    return keep


def moved_pairs(pairs: Sequence[tuple[int, int]]) -> set[tuple[int, int]]:
    """The pairs (old, new) outside a longest run kept in the same relative order."""
    ordered = sorted(pairs, key=itemgetter(1))
    keep = longest_increasing([old for old, _new in ordered])
    return {p for i, p in enumerate(ordered) if i not in keep}


def similarity(a: Sequence[str], b: Sequence[str], empty: float = 1.0) -> float:
    """Share of equal values among the positions where either side has one (`empty` when
    neither has any)."""
    used = equal = 0
    for x, y in zip(a, b, strict=False):
        if x or y:
            used += 1
            equal += x == y
    return equal / used if used else empty


def assign_similar(
    old: Sequence[int],
    new: Sequence[int],
    score: Callable[[int, int], float],
    threshold: float = SIMILARITY_THRESHOLD,
) -> list[tuple[int, int]]:
    """Greedy assignment on the similarity matrix: best pairs first, each side used once.

    With more than MAX_PAIRS cells, each new item is scored only against the old items
    at a similar relative position (a band), which keeps the work bounded.
    """
    if not old or not new:
        return []
    scored: list[tuple[float, int, int]] = []
    if len(old) * len(new) <= MAX_PAIRS:
        candidates = [(o, n) for n in new for o in old]
    else:
        width = max(1, MAX_PAIRS // (2 * len(new)))
        candidates = []
        for j, n in enumerate(new):
            centre = j * len(old) // len(new)
            for o in old[max(0, centre - width) : centre + width + 1]:
                candidates.append((o, n))
    for o, n in candidates:
        s = score(o, n)
        if s >= threshold:
            scored.append((-s, n, o))
    scored.sort()
    used_old: set[int] = set()
    used_new: set[int] = set()
    out = []
    for _s, n, o in scored:
        if o not in used_old and n not in used_new:
            used_old.add(o)
            used_new.add(n)
            out.append((o, n))
    return sorted(out, key=lambda p: p[1])


@dataclass
class Keyed:
    """Items indexed by (key, occurrence); duplicates and blank keys set aside."""

    index: dict[tuple[Hashable, int], int] = field(default_factory=dict)
    duplicates: list[tuple[int, int]] = field(default_factory=list)  # (first item, repeat)
    blank: list[int] = field(default_factory=list)


def index_keys(keys: Sequence[Hashable | None]) -> Keyed:
    """`None` is a blank key; a repeated key is indexed as (key, 2nd occurrence) and so on."""
    out = Keyed()
    if None not in keys and len(set(keys)) == len(keys):  # every key once: C-level
        out.index = dict(zip(zip(keys, repeat(0)), range(len(keys)), strict=True))
        return out
    first: dict[Hashable, int] = {}
    count: dict[Hashable, int] = {}
    for i, key in enumerate(keys):
        if key is None:
            out.blank.append(i)
            continue
        n = count.get(key, 0)
        count[key] = n + 1
        if n:
            out.duplicates.append((first[key], i))
        else:
            first[key] = i
        out.index[(key, n)] = i
    return out


@dataclass
class Alignment:
    pairs: list[tuple[int, int]]  # (old, new), ordered by new
    removed: list[int]
    added: list[int]
    moved: set[tuple[int, int]]
    old_keys: Keyed
    new_keys: Keyed


def align(
    old_keys: Sequence[Hashable | None],
    new_keys: Sequence[Hashable | None],
    score: Callable[[int, int], float],
) -> Alignment:
    """Join on keys; pair what is left by similarity when one side has no key; find moves."""
    ok, nk = index_keys(old_keys), index_keys(new_keys)
    old_at = ok.index.get  # one lookup per new key (this is per row)
    pairs = [(o, n) for k, n in nk.index.items() if (o := old_at(k)) is not None]
    blank_old, blank_new = set(ok.blank), set(nk.blank)

    def blank_score(o: int, n: int) -> float:
        return score(o, n) if o in blank_old or n in blank_new else 0.0

    if blank_old or blank_new:
        rest_old = sorted(set(range(len(old_keys))).difference(map(itemgetter(0), pairs)))
        rest_new = sorted(set(range(len(new_keys))).difference(map(itemgetter(1), pairs)))
        pairs += assign_similar(rest_old, rest_new, blank_score)
    pairs.sort(key=itemgetter(1))  # each new row once: a total order
    return Alignment(
        pairs=pairs,
        removed=sorted(set(range(len(old_keys))).difference(map(itemgetter(0), pairs))),
        added=sorted(set(range(len(new_keys))).difference(map(itemgetter(1), pairs))),
        moved=moved_pairs(pairs),
        old_keys=ok,
        new_keys=nk,
    )
