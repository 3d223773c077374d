"""A schedule `@every 1s` fired by a real supervisor: slot jitter (a run's actual start
minus its planned slot), median and max over the runs (goal: median < 20 ms).

Usage: procler_schedule.py [SECONDS]  (default 20; the issue's figure is over 60 s)."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

from _results import Results
from _timing import tool

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 20.0


def epoch(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def main() -> None:
    results = Results(f"`@every 1s` schedule over {SECONDS:g} s: slot jitter (run start - slot)")
    work = Path(tempfile.mkdtemp(prefix="procler-schedule-"))
    (work / ".procler").mkdir()
    (work / ".procler" / "config.yaml").write_text(
        "version: 1\nprocesses:\n  tick:\n    args: ['true']\n    schedule: '@every 1s'\n"
    )
    procler = tool("procler")
    subprocess.run([procler, "start", "tick"], cwd=work, check=True, capture_output=True)
    time.sleep(SECONDS)
    out = subprocess.run(
        [procler, "schedule", "list", "tick", "--runs", "200"],
        cwd=work,
        capture_output=True,
        text=True,
    )
    subprocess.run([procler, "daemon", "stop"], cwd=work, capture_output=True)
    subprocess.run(["rm", "-rf", str(work)])
    runs = json.loads(out.stdout)["data"]["schedules"][0]["history"]
    late = [
        1000 * (epoch(r["started_at"]) - epoch(r["slot"]))
        for r in runs
        if r["trigger"] == "schedule" and r["slot"] is not None
    ]
    print(
        f"@every 1s over {SECONDS:g} s: {len(late)} runs, slot jitter median "
        f"{statistics.median(late):.1f} ms, max {max(late):.1f} ms (goal: median < 20 ms)"
    )
    results.ours("runs", len(late), "", better="higher")
    results.ours("slot jitter median", statistics.median(late), "ms", goal="< 20")
    results.ours("slot jitter max", max(late), "ms")
    results.write()


if __name__ == "__main__":
    main()
