"""fieldcheck vs frictionless and pandera on a generated 1,000,000 x 12 CSV with 10 rules,
in the same run: wall time, CPU time and peak memory (RSS) of each, as a separate process.

The peers are installed into their own environments (bench/.venv-frictionless,
bench/.venv-pandera; never project dependencies) and check the same file with the closest
equivalent schema: frictionless with field types and constraints plus `row_constraint`
checks for the sum and the expression; pandera with its Polars backend (what a data
engineer would pick instead), column checks plus two frame checks. A peer that does not
install is reported as such. Goals: fieldcheck at most 1.5 s wall, at least 30x
frictionless, peak memory at most 220 MB. Usage: python bench/fieldcheck_bench.py [ROWS]
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from _results import Results

ROOT = Path(__file__).resolve().parent.parent
PEER_VENV = ROOT / "bench" / ".venv-frictionless"
PEER_PYTHON = PEER_VENV / "bin" / "python"
PANDERA_VENV = ROOT / "bench" / ".venv-pandera"
PANDERA_PYTHON = PANDERA_VENV / "bin" / "python"
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

PANDERA_SCRIPT = """
import datetime, json, sys
import polars as pl
import pandera.polars as pa
from pandera.errors import SchemaErrors
schema = pa.DataFrameSchema(
    {
        "id": pa.Column(pl.Int64, nullable=False, unique=True),
        "date": pa.Column(
            pl.Date, pa.Check.in_range(datetime.date(2020, 1, 1), datetime.date(2030, 12, 31))
        ),
        "dept": pa.Column(pl.String, pa.Check.isin(["sales", "admin", "dev", "ops"])),
        "code": pa.Column(pl.String, pa.Check.str_matches(r"^[A-Z]{2}-\\d{4}$")),
        "qty": pa.Column(pl.Int64, pa.Check.ge(1)),
        "amount": pa.Column(pl.Int64, pa.Check.ge(0)),
        "note": pa.Column(pl.String, pa.Check.str_length(max_value=40)),
        "flag": pa.Column(pl.Boolean),
    },
    checks=[
        pa.Check(lambda d: d.lazyframe.select(pl.col("total") == pl.col("amount") + pl.col("tax"))),
        pa.Check(lambda d: d.lazyframe.select(pl.col("amount") == pl.col("price") * pl.col("qty"))),
    ],
)
frame = pl.read_csv(sys.argv[1], try_parse_dates=True)
try:
    schema.validate(frame, lazy=True)
    errors = 0
except SchemaErrors as exc:
    errors = len(exc.failure_cases)
print(json.dumps({"errors": errors}))
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


def ensure_peer(venv: Path, python: Path, requirement: str) -> str:
    """Install a peer into its own environment; '' when it is there, else why not."""
    if python.exists():
        return ""
    uv = shutil.which("uv") or str(ROOT / ".tools" / "bin" / "uv")
    done = subprocess.run([uv, "venv", "-q", str(venv)], capture_output=True, text=True)
    if done.returncode == 0:
        done = subprocess.run(
            [uv, "pip", "install", "-q", "--python", str(python), requirement],
            capture_output=True,
            text=True,
        )
    return "" if done.returncode == 0 else (done.stderr.strip().splitlines() or ["?"])[-1]


@dataclass
class Run:
    """One process: wall seconds, CPU seconds (user + system, all threads), peak RSS."""

    wall: float
    cpu: float
    peak_mb: float
    stdout: str


def measured(argv: list[str]) -> Run:
    """Run argv to its end and measure it through its own rusage (wait4)."""
    t0 = time.perf_counter()
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as proc:
        out = proc.stdout.read() if proc.stdout else b""
        _, _, usage = os.wait4(proc.pid, 0)
        proc.returncode = 0  # reaped by wait4
    wall = time.perf_counter() - t0
    cpu = usage.ru_utime + usage.ru_stime
    return Run(wall, cpu, usage.ru_maxrss / 1024, out.decode("utf-8", "replace"))


def show(name: str, run: Run | None, answer: str) -> None:
    if run is None:
        print(f"{name:13} {answer}")
        return
    print(
        f"{name:13} {run.wall:8.2f} s wall {run.cpu:8.2f} s CPU {run.peak_mb:7.0f} MB peak  "
        f"{answer[:160]}"
    )


def main() -> None:
    results = Results(
        f"fieldcheck against frictionless and pandera (Polars): a {ROWS:,} x {len(COLUMNS)} CSV, "
        "10 rules, one run each"
    )
    why_not = {
        "frictionless": ensure_peer(PEER_VENV, PEER_PYTHON, "frictionless"),
        "pandera": ensure_peer(PANDERA_VENV, PANDERA_PYTHON, "pandera[polars]"),
    }
    with tempfile.TemporaryDirectory(prefix="fieldcheck-bench-") as tmp:
        data, rules = Path(tmp) / "data.csv", Path(tmp) / "rules.yaml"
        generate(data, ROWS)
        rules.write_text(RULES, encoding="utf-8")
        print(f"data: {ROWS} rows x {len(COLUMNS)} columns, {data.stat().st_size / 1e6:.1f} MB")
        print(f"load average before: {os.getloadavg()}; cores: {os.cpu_count()}")
        ours_argv = [sys.executable, "-c", "from officecli.fieldcheck.cli import main; main()"]
        ours = measured([*ours_argv, "validate", str(data), "-r", str(rules)])
        summary = json.loads(ours.stdout)["summary"] if ours.stdout.startswith("{") else ""
        show("fieldcheck", ours, f"summary={summary or ours.stdout[:200]}")
        peers: dict[str, Run | None] = {}
        for name, argv in (
            ("frictionless", [str(PEER_PYTHON), "-c", PEER_SCRIPT, str(data), json.dumps(SCHEMA)]),
            ("pandera", [str(PANDERA_PYTHON), "-c", PANDERA_SCRIPT, str(data)]),
        ):
            peers[name] = None if why_not[name] else measured(argv)
            run = peers[name]
            show(name, run, run.stdout.strip() if run else f"not installed: {why_not[name]}")
        print(f"load average after: {os.getloadavg()}")
        for name, run in peers.items():
            if run is not None:
                print(
                    f"ratio {name} / fieldcheck: wall {run.wall / ours.wall:.1f}x, "
                    f"CPU {run.cpu / ours.cpu:.1f}x, memory {run.peak_mb / ours.peak_mb:.2f}x"
                )
        friction = peers["frictionless"]
        print(
            f"goals: fieldcheck <= 1.5 s wall: {ours.wall <= 1.5}; "
            f"peak <= 220 MB: {ours.peak_mb <= 220}; "
            f">= 30x frictionless: {friction is not None and friction.wall / ours.wall >= 30}"
        )
    results.ours("fieldcheck wall", ours.wall, "s", goal="<= 1.5")
    results.ours("fieldcheck CPU", ours.cpu, "s")
    results.ours("fieldcheck peak memory", ours.peak_mb, "MB", goal="<= 220")
    for name, run in peers.items():
        if run is None:
            results.skip_peer(name, f"not installed: {why_not[name]}")
            continue
        results.peer(f"{name} wall", run.wall, "s")
        results.peer(f"{name} CPU", run.cpu, "s")
        results.peer(f"{name} peak memory", run.peak_mb, "MB")
        goal = ">= 30" if name == "frictionless" else None
        results.ratio(f"{name} / fieldcheck, wall", run.wall / ours.wall, "higher", goal)
    results.write()


if __name__ == "__main__":
    main()
