"""The pairing helpers on their own: longest increasing subsequence, moves, assignment."""

from __future__ import annotations

import random

from officecli.design_diff.align import (
    align,
    assign_similar,
    longest_increasing,
    moved_pairs,
)


def _lis_length(seq: list[int]) -> int:
    """Quadratic reference."""
    best = [1] * len(seq)
    for i in range(len(seq)):
        for j in range(i):
            if seq[j] < seq[i]:
                best[i] = max(best[i], best[j] + 1)
    return max(best, default=0)


def test_longest_increasing_is_increasing_and_longest() -> None:
    rng = random.Random(7)
    for _ in range(200):
        seq = rng.sample(range(60), rng.randint(0, 40))
        keep = sorted(longest_increasing(seq))
        values = [seq[i] for i in keep]
        assert values == sorted(set(values))
        assert len(keep) == _lis_length(seq)


def test_one_row_moved_far_is_the_only_move() -> None:
    order = list(range(100))
    order.insert(80, order.pop(3))  # item 3 now sits after item 80
    pairs = [(old, new) for new, old in enumerate(order)]
    assert moved_pairs(pairs) == {(3, 80)}


def test_assignment_takes_best_pairs_first_and_respects_the_threshold() -> None:
    scores = {(0, 0): 0.6, (0, 1): 0.9, (1, 1): 0.8, (1, 0): 0.4, (2, 2): 0.3}
    pairs = assign_similar([0, 1, 2], [0, 1, 2], lambda o, n: scores.get((o, n), 0.0))
    assert pairs == [(0, 1)]  # (1, 1) lost to the better (0, 1); (1, 0) is below 0.5


def test_align_joins_keys_and_pairs_blank_keys_by_content() -> None:
    result = align(
        ["a", None, "c"], ["c", "a", None, "d"], lambda o, n: 1.0 if (o, n) == (1, 2) else 0.0
    )
    assert (result.pairs, result.added, result.removed, result.moved) == (
        [(2, 0), (0, 1), (1, 2)],
        [3],
        [],
        {(2, 0)},
    )
    assert (result.old_keys.blank, result.new_keys.blank) == ([1], [2])
