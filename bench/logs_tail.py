"""`query(tail=100)` on a ~1 GB log vs a ~1 MB log (goal: ratio < 1.3, tail must not scan).

Both logs are written with `LogStore` (1 GB as 8 segments of 128 MiB), then the two tails
are timed interleaved, in process, and the medians compared.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from _results import Results

from procler.logs.query import query
from procler.logs.store import LogStore

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 200
LINE = "GET /api/items?page={i} 200 12.3ms user-agent=bench-client/1.0 " + "x" * 120
BATCH = 1000


def build(directory: Path, process: str, target_bytes: int) -> int:
    """Write lines of ~250 bytes in batches until the log holds `target_bytes`; bytes written."""
    segment = 128 * 1024 * 1024
    store = LogStore(directory, max_size=segment, max_files=target_bytes // segment + 2)
    written = 0
    i = 0
    ts = 1_700_000_000.0
    while written < target_bytes:
        texts = [LINE.format(i=i + k) for k in range(BATCH)]
        store.append_many(process, ts, "stdout", 1 + i // 1_000_000, texts)
        written += sum(len(t) for t in texts) + 40 * BATCH
        i += BATCH
        ts += 0.01
    store.close()
    return sum(p.stat().st_size for p in (directory / process).glob("*.log"))


def time_tail(directory: Path, process: str) -> float:
    start = time.perf_counter()
    result = query(directory, process, tail=100)
    elapsed = time.perf_counter() - start
    assert len(result.lines) == 100 and result.truncated
    return elapsed


def main() -> None:
    results = Results(f"`tail 100` on a 1 GB log against a 1 MB log, median of {RUNS}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        big = build(folder, "big", 1 << 30)
        small = build(folder, "small", 1 << 20)
        samples: dict[str, list[float]] = {"big": [], "small": []}
        for _ in range(RUNS):
            for name in samples:
                samples[name].append(time_tail(folder, name))
    medians = {name: statistics.median(values) for name, values in samples.items()}
    print(f"1 GB log: {big / 1e9:.2f} GB, tail 100 median {medians['big'] * 1000:.3f} ms")
    print(f"1 MB log: {small / 1e6:.2f} MB, tail 100 median {medians['small'] * 1000:.3f} ms")
    print(f"ratio 1 GB / 1 MB = {medians['big'] / medians['small']:.2f} (goal < 1.3)")
    results.ours("tail 100 of 1 GB", medians["big"] * 1000, "ms")
    results.ours("tail 100 of 1 MB", medians["small"] * 1000, "ms")
    results.ratio("1 GB / 1 MB", medians["big"] / medians["small"], goal="< 1.3")
    results.write()


if __name__ == "__main__":
    main()
