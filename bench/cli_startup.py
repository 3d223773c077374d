"""Start-up of the everyday case against `python3 -c pass`, same run: `procler capabilities`
(target ratio <= 1.3) and `fieldcheck validate` of a 200-row CSV with fieldcheck_bench's 10
rules (the large-file engine must not slow the small file: `make bench-compare` against a
commit says by how much it moved)."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from _results import Results
from _timing import compare, print_table, tool
from fieldcheck_bench import RULES, generate

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 30
SMALL_ROWS = 200

results = Results(
    f"CLI start-up: `procler capabilities` and `fieldcheck validate` of a {SMALL_ROWS}-row CSV "
    f"against `python3 -c pass`, median of {RUNS}"
)
with tempfile.TemporaryDirectory(prefix="cli-startup-") as tmp:
    data, rules = Path(tmp, "data.csv"), Path(tmp, "rules.yaml")
    generate(data, SMALL_ROWS)
    rules.write_text(RULES, encoding="utf-8")
    fieldcheck = f"fieldcheck, {SMALL_ROWS} rows"
    medians = compare(
        {
            "python3 -c pass": [sys.executable, "-c", "pass"],
            "procler capabilities": [tool("procler"), "capabilities"],
            fieldcheck: [tool("fieldcheck"), "validate", str(data), "-r", str(rules)],
        },
        RUNS,
    )
print_table(medians, "python3 -c pass")
ratio = medians["procler capabilities"] / medians["python3 -c pass"]
print(f"ratio procler capabilities / python3 -c pass = {ratio:.2f} (target <= 1.3)")
results.ours("procler capabilities", medians["procler capabilities"] * 1000, "ms")
results.ours(fieldcheck, medians[fieldcheck] * 1000, "ms")
results.peer("python3 -c pass", medians["python3 -c pass"] * 1000, "ms")
results.ratio("procler capabilities / python3 -c pass", ratio, goal="<= 1.3")
results.ratio(f"{fieldcheck} / python3 -c pass", medians[fieldcheck] / medians["python3 -c pass"])
results.write()
