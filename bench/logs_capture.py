"""Capture cost: a child writing 1,000,000 short lines, piped to a file vs through Procler.

Same run, interleaved rounds: `> file` (the child's stdout is the file), then the child's
stdout read by `procler.logs.capture.capture_stream` into a `LogStore` flushed every 50 ms
(as the supervisor does). Reports lines lost (goal 0), the throughput ratio
file-time / capture-time (goal >= 50%) and the peak RSS of this capturing process, and
the same for the per-line path (`read_lines` + one `store.append` per line).
"""

from __future__ import annotations

import asyncio
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _results import Results

from procler.logs.capture import capture_stream, read_lines
from procler.logs.segment import list_segments, segment_path
from procler.logs.store import LogStore

LINES = 1_000_000
ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 3
CHILD = (
    f"import sys\nwrite = sys.stdout.write\nfor i in range({LINES}):\n    write(f'line {{i}}\\n')\n"
)


def to_file(path: Path) -> float:
    start = time.perf_counter()
    with path.open("wb") as out:
        subprocess.run([sys.executable, "-c", CHILD], stdout=out, check=True)
    return time.perf_counter() - start


async def _store_each_line(reader: asyncio.StreamReader, store: LogStore) -> None:
    """The per-line path: read_lines, then one store.append per line."""
    async for chunk in read_lines(reader, "stdout"):
        store.append("bench", chunk.ts, chunk.stream, 1, chunk.text, chunk.partial)


async def _capture(store: LogStore, per_line: bool) -> None:
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CHILD, stdout=asyncio.subprocess.PIPE
    )
    assert child.stdout is not None

    async def flush_often() -> None:
        while True:
            await asyncio.sleep(0.05)
            store.flush()

    flusher = asyncio.ensure_future(flush_often())
    if per_line:
        await _store_each_line(child.stdout, store)
    else:
        await capture_stream(child.stdout, "stdout", store, "bench", 1)
    await child.wait()
    flusher.cancel()
    store.flush()


def captured(folder: Path, per_line: bool = False) -> float:
    store = LogStore(folder, max_size=1 << 30, max_files=2)  # keep every line: count losses
    start = time.perf_counter()
    asyncio.run(_capture(store, per_line))
    elapsed = time.perf_counter() - start
    store.close()
    return elapsed


def lost_lines(folder: Path) -> int:
    """Expected lines missing from the store, checking order (0 when all are there)."""
    expected = 0
    for number in list_segments(folder / "bench"):
        with segment_path(folder / "bench", number).open("rb") as file:
            for raw in file:
                if json.loads(raw)["t"] == f"line {expected}":
                    expected += 1
    return LINES - expected


def main() -> None:
    results = Results(
        f"log capture library alone: {LINES:,} lines against `> file`, median of {ROUNDS}"
    )
    file_times, capture_times, per_line_times, losses = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for round_number in range(ROUNDS):
            file_times.append(to_file(Path(tmp) / f"plain{round_number}.txt"))
            folder = Path(tmp) / f"store{round_number}"
            capture_times.append(captured(folder))
            losses.append(lost_lines(folder))
            folder = Path(tmp) / f"per_line{round_number}"
            per_line_times.append(captured(folder, per_line=True))
            losses.append(lost_lines(folder))
    rss_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # peak of all rounds
    file_median = statistics.median(file_times)
    capture_median = statistics.median(capture_times)
    print(f"lines per run            {LINES}")
    print(f"> file (median)          {file_median:.3f} s  ({LINES / file_median:,.0f} lines/s)")
    print(
        f"capture (median)         {capture_median:.3f} s  ({LINES / capture_median:,.0f} lines/s)"
    )
    per_line_median = statistics.median(per_line_times)
    print(f"per-line path (median)   {per_line_median:.3f} s  (read_lines + store.append)")
    print(f"lines lost per capture   {losses} (goal 0)")
    print(f"throughput ratio         {file_median / capture_median:.0%} (goal >= 50%)")
    print(f"per-line path ratio      {file_median / per_line_median:.0%}")
    print(f"peak RSS while capturing {rss_mib:.1f} MiB")
    results.ours("capture", capture_median, "s")
    results.ours("per-line path", per_line_median, "s")
    results.peer("> file", file_median, "s")
    results.ratio("throughput, capture / > file", file_median / capture_median, "higher", ">= 0.5")
    results.ratio("throughput, per-line path / > file", file_median / per_line_median, "higher")
    results.ours("lines lost", sum(losses), "", goal="== 0")
    results.ours("peak RSS while capturing", rss_mib, "MiB")
    results.write()


if __name__ == "__main__":
    main()
