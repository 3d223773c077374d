"""bench-compare's arithmetic: ratios, spread, which way is worse, and what gets flagged."""

from __future__ import annotations

import math
from typing import Any

from compare import Change, changes, flag, ratio, spread, table, worse_by


def test_ratio_is_new_median_over_old_median() -> None:
    assert ratio([11.0], [10.0]) == 1.1
    assert ratio([12.0, 30.0, 14.0], [10.0, 9.0, 100.0]) == 1.4
    assert ratio([0.0], [0.0]) == 1.0
    assert math.isinf(ratio([1.0], [0.0]))


def test_spread_is_the_range_over_the_median() -> None:
    assert spread([8.0, 10.0, 12.0]) == 0.4
    assert spread([5.0]) == 0.0
    assert spread([0.0, 0.0]) == 0.0
    assert math.isinf(spread([0.0, 0.0, 1.0]))


def test_worse_by_follows_which_way_is_better() -> None:
    assert worse_by(1.25, "lower") == 1.25
    assert worse_by(0.8, "higher") == 1.25
    assert worse_by(2.0, "none") == 1.0
    assert math.isinf(worse_by(0.0, "higher"))


def test_flag_needs_more_than_ten_percent_and_more_than_the_noise() -> None:
    assert flag(1.11, 0.0)
    assert not flag(1.1, 0.0)  # exactly 10% is not more than 10%
    assert not flag(1.2, 0.25)  # within what the runs themselves spread
    assert flag(1.3, 0.25)
    assert not flag(0.5, 0.0)  # better


def change(kind: str, better: str, old: tuple[float, ...], new: tuple[float, ...]) -> Change:
    return Change(kind=kind, label="x", unit="ms", better=better, old=old, new=new)


def test_a_change_of_ours_is_flagged_a_peer_never() -> None:
    slower = change("ours", "lower", (10.0, 10.0, 10.0), (12.0, 12.0, 12.0))
    assert (slower.ratio, slower.noise, slower.worse, slower.flagged) == (1.2, 0.0, 1.2, True)
    assert slower.rounds == (1.2, 1.2)
    assert not change("peers", "lower", (10.0,), (12.0,)).flagged
    assert change("ratios", "higher", (10.0,), (8.0,)).flagged  # a speed-up ratio fell
    noisy = change("ours", "lower", (8.0, 10.0, 12.0), (12.0, 12.0, 12.0))
    assert (noisy.ratio, noisy.noise, noisy.flagged) == (1.2, 0.4, False)
    assert noisy.rounds == (1.0, 1.5)


def run(ours: dict[str, float], peers: dict[str, float]) -> dict[str, Any]:
    figures = {
        "ours": {k: {"value": v, "unit": "ms", "better": "lower"} for k, v in ours.items()},
        "peers": {k: {"value": v, "unit": "ms", "better": "lower"} for k, v in peers.items()},
        "ratios": {},
    }
    return figures


def test_changes_pair_the_figures_of_every_run() -> None:
    old = [run({"status": 20.0, "gone": 1.0}, {"floor": 17.0})] * 2
    new = [run({"status": 22.0}, {"floor": 17.0}), run({"status": 24.0}, {"floor": 18.0})]
    assert changes(old, new) == [
        Change("ours", "status", "ms", "lower", (20.0, 20.0), (22.0, 24.0)),
        Change("peers", "floor", "ms", "lower", (17.0, 17.0), (17.0, 18.0)),
    ]  # "gone" is not in the new runs: nothing to compare


def test_table_prints_medians_ratio_rounds_noise_and_the_flag() -> None:
    found = [
        Change("ours", "status", "ms", "lower", (20.0, 20.0), (24.0, 24.0)),
        Change("peers", "floor", "ms", "lower", (17.0, 17.0), (17.0, 18.0)),
    ]
    assert table("procler_status", found) == [
        "procler_status",
        f"{'':46} {'old':>9} {'new':>9} {'new/old':>8} {'per round':>12} {'noise':>6}",
        f"  {'status (ms)':44} {'20':>9} {'24':>9} {1.2:8.3f} {'1.20-1.20':>12} {'0%':>6}  WORSE",
        f"  {'floor (ms) [peer]':44} {'17':>9} {'17.5':>9} {17.5 / 17:8.3f} "
        f"{'1.00-1.06':>12} {'6%':>6}",
    ]
