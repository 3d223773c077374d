"""What matching user regexes with RE2 costs: per output line against Python's `re`, and the
catastrophic pattern that pinned the supervisor (`^(a+)+$` on 34 a's and a b).

The backtracking run is bounded by shorter inputs (each extra `a` doubles it) and its
figure extrapolated to 34; RE2's is measured on the real line.
"""

from __future__ import annotations

import re
import statistics
import time
from collections.abc import Callable

from _results import Results

from procler.patterns import compile_pattern

LINE = "2024-05-01 12:00:00 INFO worker 17 processed job 12345 in 3.2ms user=bench"
PATTERNS = ["listening on \\d+", "ERROR|FATAL", "job \\d+ in [0-9.]+ms$"]
LINES = 100_000


def per_line(search: Callable[[str], object], text: str) -> float:
    samples = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(LINES):
            search(text)
        samples.append((time.perf_counter() - start) / LINES)
    return statistics.median(samples) * 1e9


def main() -> None:
    results = Results(
        "user regexes: RE2 against Python's `re` per log line, and `^(a+)+$` on 35 bytes"
    )
    for pattern in PATTERNS:
        python, linear = (
            per_line(re.compile(pattern).search, LINE),
            per_line(compile_pattern(pattern).search, LINE),
        )
        print(
            f"{pattern!r:28} re {python:6.0f} ns/line  RE2 {linear:6.0f} ns/line  ratio {linear / python:.1f}x"
        )
        results.ours(f"RE2 `{pattern}`", linear, "ns/line")
        results.peer(f"re `{pattern}`", python, "ns/line")
        results.ratio(f"RE2 / re `{pattern}`", linear / python)
    bomb = "^(a+)+$"
    start = time.perf_counter()
    re.compile(bomb).search("a" * 22 + "b")
    backtracking = (time.perf_counter() - start) * 2 ** (34 - 22)
    start = time.perf_counter()
    compile_pattern(bomb).search("a" * 34 + "b")
    linear = time.perf_counter() - start
    print(
        f"{bomb!r} on 35 bytes: re ~{backtracking:.0f} s (extrapolated), RE2 {linear * 1e6:.0f} us"
    )
    results.ours("RE2 `^(a+)+$` on 35 bytes", linear * 1e6, "µs")
    results.peer("re `^(a+)+$` on 35 bytes (extrapolated)", backtracking, "s")
    results.write()


if __name__ == "__main__":
    main()
