"""fieldcheck vs frictionless on a generated 1,000,000 x 12 CSV with 10 rules, same run.

frictionless is installed into bench/.venv-frictionless (never a project dependency) and
validates the same file with the closest equivalent schema: field types and constraints,
plus `row_constraint` checks for the sum and the expression. Goal: fieldcheck at least
10x faster and under 10 s. Usage: python bench/fieldcheck_bench.py [ROWS]
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _results import Results

ROOT = Path(__file__).resolve().parent.parent
PEER_VENV = ROOT / "bench" / ".venv-frictionless"
PEER_PYTHON = PEER_VENV / "bin" / "python"
ROWS = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
COLUMNS = [
    "id",
    "date",
    "dept",
    "code",
    "qty",
    "price",
    "amount",
    "tax",
    "total",
    "note",
    "flag",
    "email",
]
DEPTS = ["sales", "admin", "dev", "ops"]

RULES = """version: 1
name: bench
fields:
  id: integer
  date: date
  qty: integer
  price: number
  flag: boolean
rules:
  - {id: R01, type: required, field: id}
  - {id: R02, type: unique, fields: id}
  - {id: R03, type: enum, field: dept, values: [sales, admin, dev, ops]}
  - {id: R04, type: pattern, field: code, regex: "[A-Z]{2}-\\\\d{4}"}
  - {id: R05, type: range, field: amount, min: 0}
  - {id: R06, type: compare, left: qty, op: ">=", value: 1}
  - {id: R07, type: sum_equals, total: total, parts: [amount, tax]}
  - {id: R08, type: length, field: note, max: 40}
  - {id: R09, type: expression, expr: "amount == price * qty"}
  - {id: R10, type: range, field: date, min: "2020-01-01", max: "2030-12-31"}
"""

SCHEMA = {
    "fields": [
        {"name": "id", "type": "integer", "constraints": {"required": True, "unique": True}},
        {
            "name": "date",
            "type": "date",
            "constraints": {"minimum": "2020-01-01", "maximum": "2030-12-31"},
        },
        {"name": "dept", "type": "string", "constraints": {"enum": DEPTS}},
        {"name": "code", "type": "string", "constraints": {"pattern": "[A-Z]{2}-\\d{4}"}},
        {"name": "qty", "type": "integer", "constraints": {"minimum": 1}},
        {"name": "price", "type": "number"},
        {"name": "amount", "type": "number", "constraints": {"minimum": 0}},
        {"name": "tax", "type": "number"},
        {"name": "total", "type": "number"},
        {"name": "note", "type": "string", "constraints": {"maxLength": 40}},
        {"name": "flag", "type": "boolean"},
        {"name": "email", "type": "string"},
    ]
}

PEER_SCRIPT = """
import json, os, sys
from frictionless import Checklist, Resource, Schema, checks
schema = Schema.from_descriptor(json.loads(sys.argv[2]))
checklist = Checklist(checks=[
    checks.row_constraint(formula="total == amount + tax"),
    checks.row_constraint(formula="amount == price * qty"),
])
# frictionless refuses absolute paths as unsafe; a base path makes the same file relative.
folder, name = os.path.split(sys.argv[1])
resource = Resource(name, basepath=folder, schema=schema)
report = resource.validate(checklist, limit_errors=10**9)
errors = report.flatten(["rowNumber", "type"])
print(json.dumps({"valid": report.valid, "errors": len(errors), "first": errors[:2]}))
"""


def generate(path: Path, rows: int) -> None:
    rng = random.Random(9)
    with open(path, "w", encoding="utf-8", newline="") as fh:
        fh.write(",".join(COLUMNS) + "\n")
        for i in range(1, rows + 1):
            qty = rng.randint(1, 20)
            price = rng.randint(1, 500) * 10
            amount = qty * price
            tax = amount // 10
            total = amount + tax if i % 1000 else amount + tax + 1  # one bad total per 1000
            day = f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
            code = f"AB-{i % 10000:04d}" if i % 5000 else "bad"
            fh.write(
                f"{i},{day},{DEPTS[i % 4]},{code},{qty},{price},{amount},{tax},{total},"
                f"note {i},{'true' if i % 2 else 'false'},user{i}@example.com\n"
            )


def ensure_peer() -> None:
    if PEER_PYTHON.exists():
        return
    subprocess.run(["uv", "venv", "-q", str(PEER_VENV)], check=True)
    subprocess.run(
        ["uv", "pip", "install", "-q", "--python", str(PEER_PYTHON), "frictionless"], check=True
    )


def timed(argv: list[str]) -> tuple[float, str]:
    t0 = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    return time.perf_counter() - t0, done.stdout


def main() -> None:
    results = Results(
        f"fieldcheck against frictionless: a {ROWS:,} x {len(COLUMNS)} CSV, 10 rules, one run"
    )
    ensure_peer()
    with tempfile.TemporaryDirectory(prefix="fieldcheck-bench-") as tmp:
        data, rules = Path(tmp) / "data.csv", Path(tmp) / "rules.yaml"
        generate(data, ROWS)
        rules.write_text(RULES, encoding="utf-8")
        print(f"data: {ROWS} rows x {len(COLUMNS)} columns, {data.stat().st_size / 1e6:.1f} MB")
        ours_argv = [sys.executable, "-c", "from officecli.fieldcheck.cli import main; main()"]
        ours_time, ours_out = timed([*ours_argv, "validate", str(data), "-r", str(rules)])
        summary = json.loads(ours_out)["summary"] if ours_out.startswith("{") else ours_out[:200]
        print(f"fieldcheck   {ours_time:8.2f} s  summary={summary}")
        peer_time, peer_out = timed(
            [str(PEER_PYTHON), "-c", PEER_SCRIPT, str(data), json.dumps(SCHEMA)]
        )
        print(f"frictionless {peer_time:8.2f} s  {peer_out.strip()[:200]}")
        print(
            f"ratio frictionless / fieldcheck = {peer_time / ours_time:.1f}x "
            f"(goal >= 10x); fieldcheck under 10 s: {ours_time < 10}"
        )
    results.ours("fieldcheck", ours_time, "s", goal="< 10")
    results.peer("frictionless", peer_time, "s")
    results.ratio("frictionless / fieldcheck", peer_time / ours_time, "higher", goal=">= 10")
    results.write()


if __name__ == "__main__":
    main()
