"""A renamed key: a removed row and an added row at the same place (or next to each
other) whose other values are equal, or nearly so, are one row whose key changed."""

from __future__ import annotations

import bisect
from collections.abc import Callable
from operator import itemgetter

from officecli.design_diff.align import assign_similar

RENAME_SIMILARITY = 0.6  # share of the other values equal (where either row has one)


def renamed_rows(
    removed: list[int],
    added: list[int],
    pairs: list[tuple[int, int]],
    score: Callable[[int, int], float],
) -> list[tuple[int, int]]:
    """(old, new) rows taken for one renamed row, best likeness first, each row once. A
    row's place is the number of matched rows above it in its own version: a removed and
    an added row are at the same place when those counts differ by at most one."""
    if not removed or not added:
        return []
    olds = sorted(map(itemgetter(0), pairs))  # C-level: a pair per matched row
    news = sorted(map(itemgetter(1), pairs))
    place_old = {o: bisect.bisect_left(olds, o) for o in removed}
    place_new = {n: bisect.bisect_left(news, n) for n in added}

    def placed(o: int, n: int) -> float:
        return score(o, n) if abs(place_old[o] - place_new[n]) <= 1 else 0.0

    return assign_similar(removed, added, placed, RENAME_SIMILARITY)
