"""`procler capabilities` wall time against `python3 -c pass`, same run (target ratio <= 1.3)."""

from __future__ import annotations

import sys

from _results import Results
from _timing import compare, print_table, tool

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 30

results = Results(
    f"CLI start-up: `procler capabilities` against `python3 -c pass`, median of {RUNS}"
)
medians = compare(
    {
        "python3 -c pass": [sys.executable, "-c", "pass"],
        "procler capabilities": [tool("procler"), "capabilities"],
    },
    RUNS,
)
print_table(medians, "python3 -c pass")
ratio = medians["procler capabilities"] / medians["python3 -c pass"]
print(f"ratio procler capabilities / python3 -c pass = {ratio:.2f} (target <= 1.3)")
results.ours("procler capabilities", medians["procler capabilities"] * 1000, "ms")
results.peer("python3 -c pass", medians["python3 -c pass"] * 1000, "ms")
results.ratio("procler capabilities / python3 -c pass", ratio, goal="<= 1.3")
results.write()
