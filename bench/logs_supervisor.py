"""End to end through a real supervisor: a child printing 1,000,000 short lines as fast as it
can, captured by Procler, against the same child writing straight to a file (`> file`).

Reports lines lost (must be 0), the throughput ratio (goal >= 50%) and the supervisor's
peak RSS (VmHWM).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _results import Results
from _timing import tool

from procler.logs.query import query

LINES = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
ROUNDS = 3
CHILD = f"import sys\nw = sys.stdout.write\nfor i in range({LINES}):\n    w(f'line {{i}}\\n')"


def procler(work: Path, *args: str) -> dict[str, Any]:
    out = subprocess.run([tool("procler"), *args], cwd=work, capture_output=True, text=True)
    answer: dict[str, Any] = json.loads(out.stdout)
    return answer


def stored_texts(logs: Path) -> list[str]:
    """Every line stored of the current run, a page at a time: an answer holds at most
    MAX_ANSWER_LINES, and `more` says lines follow its cursor (code from before the pages
    answered everything at once, and has no `more`)."""
    page = query(logs, "spew", tail=None, run="current")
    texts = [line["text"] for line in page.lines]
    while getattr(page, "more", False):
        page = query(logs, "spew", tail=None, run="current", after=page.cursor)
        texts += [line["text"] for line in page.lines]
    return texts


def main() -> None:
    results = Results(
        f"{LINES:,} lines through a real supervisor against `> file`, median of {ROUNDS}"
    )
    work = Path(tempfile.mkdtemp(prefix="procler-logbench-"))
    (work / ".procler").mkdir()
    (work / "child.py").write_text(CHILD)
    (work / ".procler" / "config.yaml").write_text(
        "version: 1\nlogs: {max_size: 512MB, max_files: 4}\nprocesses:\n"
        f"  spew:\n    args: [{sys.executable}, child.py]\n    restart: {{policy: 'no'}}\n"
    )
    procler(work, "status")  # supervisor up and warm
    directs, captures = [], []
    for _ in range(ROUNDS):  # interleaved, so machine noise hits both alike
        t0 = time.perf_counter()
        with open(work / "direct.txt", "wb") as sink:
            subprocess.run([sys.executable, str(work / "child.py")], stdout=sink, check=True)
        directs.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        procler(work, "restart", "spew")
        procler(work, "wait", "spew", "--for", "exited", "--timeout", "600s")
        captures.append(time.perf_counter() - t0)
    direct, captured = statistics.median(directs), statistics.median(captures)
    pid = procler(work, "daemon", "status")["data"]["pid"]
    hwm = next(
        int(line.split()[1]) * 1024
        for line in Path(f"/proc/{pid}/status").read_text().splitlines()
        if line.startswith("VmHWM:")
    )
    time.sleep(0.2)  # the last flush
    texts = stored_texts(work / ".procler" / "state" / "logs")
    expected = [f"line {i}" for i in range(LINES)]
    lost = LINES - len(texts)
    in_order = texts == expected
    print(
        f"{LINES} lines, median of {ROUNDS}: > file {direct:.3f} s, through procler {captured:.3f} s"
    )
    print(
        f"throughput ratio {direct / captured:.0%} of > file (goal >= 50%), lines lost {lost}, "
        f"order kept {in_order}, supervisor peak RSS {hwm / 2**20:.1f} MiB"
    )
    procler(work, "daemon", "stop")
    subprocess.run(["rm", "-rf", str(work)])
    results.ours("through procler", captured, "s")
    results.peer("> file", direct, "s")
    results.ratio("throughput, procler / > file", direct / captured, "higher", goal=">= 0.5")
    results.ours("lines lost", lost, "", goal="== 0")
    results.ours("order kept", int(in_order), "", "higher", goal="== 1")
    results.ours("supervisor peak RSS", hwm / 2**20, "MiB")
    results.write()


if __name__ == "__main__":
    main()
