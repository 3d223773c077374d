"""design-diff vs daff on two 20,000 x 15 design workbooks with planted changes, same run.

After the base workbook, the new one has 1% of its rows with one changed cell, 50 rows
inserted and 50 rows moved elsewhere. design-diff compares the two .xlsx files keyed by
物理名; daff (installed into bench/.venv-daff, never a project dependency) compares CSV
exports of the same sheets keyed by the same column. Each tool's findings are scored
against the planted changes: false positives and misses per kind, and wall time.
Goal: no false positive, no miss, and faster than daff. The machine may be shared: each
pair of runs prints the load average before it, and RUNS pairs (alternating) end with the
median ratios. Usage: design_diff_bench.py [ROWS] [RUNS]
"""

from __future__ import annotations

import csv
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _results import Results

ROOT = Path(__file__).resolve().parent.parent
PEER_VENV = ROOT / "bench" / ".venv-daff"
PEER_PYTHON = PEER_VENV / "bin" / "python"
ROWS = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else 1
CHANGED, INSERTED, MOVED = ROWS // 100, 50, 50
KEY = "物理名"
HEADER = [KEY, "論理名", "型", "必須", "桁数", "形式", "初期値", "区分", "説明",
          "備考", "作成者", "更新者", "版", "画面", "テーブル"]  # fmt: skip
TYPES = ["string", "integer", "number", "boolean", "date"]

PEER_SCRIPT = """
import csv, json, sys
import daff
def load(path):
    with open(path, encoding="utf-8", newline="") as fh:
        return [row for row in csv.reader(fh)]
old, new = load(sys.argv[1]), load(sys.argv[2])
flags = daff.CompareFlags()
flags.addPrimaryKey(sys.argv[3])
alignment = daff.Coopy.compareTables3(None, daff.PythonTableView(old), daff.PythonTableView(new), flags).align()
out = []
daff.TableDiff(alignment, flags).hilite(daff.PythonTableView(out))
header = out[0]
key_at = header.index(sys.argv[3])
found = {"changed": [], "added": [], "removed": [], "moved": []}
for row in out[1:]:
    action, key = row[0], str(row[key_at]).split("->")[-1]
    if action == "+++":
        found["added"].append(key)
    elif action == "---":
        found["removed"].append(key)
    elif action == ":":
        found["moved"].append(key)
    if "->" in action:
        for name, cell in zip(header, row):
            if name != "@@" and isinstance(cell, str) and "->" in cell:
                found["changed"].append([key, name])
print(json.dumps(found))
"""


def base_rows(rng: random.Random) -> list[list[str]]:
    rows = []
    for i in range(ROWS):
        rows.append([f"item_{i:05d}", f"項目{i}", rng.choice(TYPES), rng.choice(["○", ""]),
                     str(rng.randint(1, 200)), "", "", "レスポンス", f"説明 {i}", "",
                     "sato", "suzuki", "1.0", f"SCR{i % 40:03d}", f"T{i % 90:02d}"])  # fmt: skip
    return rows


def plant(rows: list[list[str]], rng: random.Random) -> tuple[list[list[str]], dict[str, set]]:
    """The new version and the planted truth (changed cells, inserted and moved keys)."""
    new = [list(r) for r in rows]
    truth: dict[str, set] = {"changed": set(), "added": set(), "moved": set(), "removed": set()}
    for i in rng.sample(range(ROWS), CHANGED):
        col = rng.randrange(1, len(HEADER))
        new[i][col] = new[i][col] + " 改"
        truth["changed"].add((new[i][0], HEADER[col]))
    movers = [r for r in new if (r[0], "") not in truth["changed"]]
    for row in rng.sample(movers, MOVED):
        new.remove(row)
        new.insert(rng.randrange(len(new) + 1), row)
        truth["moved"].add(row[0])
    for n in range(INSERTED):
        at = rng.randrange(len(new) + 1)
        new.insert(at, [f"new_{n:03d}", "新", "string", "", "10", *[""] * 10])
        truth["added"].add(f"new_{n:03d}")
    return new, truth


def write_xlsx(path: Path, rows: list[list[str]]) -> None:
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    sheet = book.create_sheet("項目定義")
    sheet.append(HEADER)
    for row in rows:
        sheet.append(row)
    book.save(path)


def write_csv(path: Path, rows: list[list[str]]) -> None:
    with open(path, "w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(HEADER)
        writer.writerows(rows)


def ensure_peer() -> None:
    if PEER_PYTHON.exists():
        return
    subprocess.run(["uv", "venv", "-q", str(PEER_VENV)], check=True)
    subprocess.run(["uv", "pip", "install", "-q", "--python", str(PEER_PYTHON), "daff"], check=True)


def timed(argv: list[str]) -> tuple[float, float, str]:
    """Wall and CPU seconds of the child (CPU too: the machine may be shared), and stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu, done.stdout


def ours(old: Path, new: Path) -> tuple[float, float, dict[str, set]]:
    argv = [sys.executable, "-c", "from officecli.design_diff.cli import main; main()"]
    wall, cpu, out = timed(
        [*argv, "excel", "--before", str(old), "--after", str(new), "--key", KEY]
    )
    found: dict[str, set] = {"changed": set(), "added": set(), "moved": set(), "removed": set()}
    kinds = {"cell.changed": "changed", "row.added": "added", "row.moved": "moved",
             "row.removed": "removed"}  # fmt: skip
    for f in json.loads(out)["findings"]:
        key = f["location"].partition(f"({KEY}=")[2].rstrip(")")
        kind = kinds.get(f["rule_id"], f["rule_id"])
        found.setdefault(kind, set()).add((key, f["field"]) if kind == "changed" else key)
    return wall, cpu, found


def peer(old: Path, new: Path) -> tuple[float, float, dict[str, set]]:
    wall, cpu, out = timed([str(PEER_PYTHON), "-c", PEER_SCRIPT, str(old), str(new), KEY])
    raw = json.loads(out)
    found = {k: {tuple(v) if isinstance(v, list) else v for v in vs} for k, vs in raw.items()}
    return wall, cpu, found


def score(found: dict[str, set], truth: dict[str, set]) -> str:
    parts = []
    for kind in sorted(set(found) | set(truth)):
        extra, missed = (
            len(found.get(kind, set()) - truth.get(kind, set())),
            len(truth.get(kind, set()) - found.get(kind, set())),
        )
        parts.append(f"{kind}: {len(found.get(kind, set()))} found, {extra} false, {missed} missed")
    return "; ".join(parts)


def errors(found: dict[str, set], truth: dict[str, set]) -> tuple[int, int]:
    """False positives and misses over every kind of change."""
    kinds = set(found) | set(truth)
    false = sum(len(found.get(k, set()) - truth.get(k, set())) for k in kinds)
    return false, sum(len(truth.get(k, set()) - found.get(k, set())) for k in kinds)


def main() -> None:
    results = Results(
        f"design-diff (xlsx) against daff (CSV): {ROWS:,} x {len(HEADER)}, "
        f"{CHANGED + INSERTED + MOVED} planted changes, median of {RUNS}"
    )
    ensure_peer()
    rng = random.Random(16)
    rows = base_rows(rng)
    new, truth = plant(rows, rng)
    with tempfile.TemporaryDirectory(prefix="design-diff-bench-") as tmp:
        folder = Path(tmp)
        write_xlsx(folder / "old.xlsx", rows)
        write_xlsx(folder / "new.xlsx", new)
        write_csv(folder / "old.csv", rows)
        write_csv(folder / "new.csv", new)
        print(f"workbooks: {ROWS} x {len(HEADER)}; planted {CHANGED} changed cells, "
              f"{INSERTED} inserted rows, {MOVED} moved rows")  # fmt: skip
        ratios = []
        runs = []
        for _run in range(RUNS):
            load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
            print(f"load average {load}")
            ours_wall, ours_cpu, ours_found = ours(folder / "old.xlsx", folder / "new.xlsx")
            print(
                f"design-diff {ours_wall:7.2f} s wall {ours_cpu:6.2f} s CPU  "
                f"{score(ours_found, truth)}"
            )
            peer_wall, peer_cpu, peer_found = peer(folder / "old.csv", folder / "new.csv")
            print(
                f"daff        {peer_wall:7.2f} s wall {peer_cpu:6.2f} s CPU  "
                f"{score(peer_found, truth)}"
            )
            ratios.append((peer_wall / ours_wall, peer_cpu / ours_cpu))
            runs.append((ours_wall, ours_cpu, peer_wall, peer_cpu, ours_found, peer_found))
            print(
                f"ratio daff / design-diff = {ratios[-1][0]:.2f}x wall, "
                f"{ratios[-1][1]:.2f}x CPU (goal > 1x, no false, no missed)"
            )
        if RUNS > 1:
            walls, cpus = zip(*ratios, strict=True)
            print(
                f"median of {RUNS}: {statistics.median(walls):.2f}x wall, "
                f"{statistics.median(cpus):.2f}x CPU; lowest {min(walls):.2f}x wall"
            )
    median = [statistics.median(run[i] for run in runs) for i in range(4)]
    results.ours("design-diff wall", median[0], "s")
    results.ours("design-diff CPU", median[1], "s")
    results.peer("daff wall", median[2], "s")
    results.peer("daff CPU", median[3], "s")
    wall, cpu = (statistics.median(r[i] for r in ratios) for i in (0, 1))
    results.ratio("daff / design-diff, wall", wall, "higher", goal="> 1")
    results.ratio("daff / design-diff, CPU", cpu, "higher")
    for tool, found in (("design-diff", runs[-1][4]), ("daff", runs[-1][5])):
        false, missed = errors(found, truth)
        record = results.ours if tool == "design-diff" else results.peer
        record(f"{tool} false positives", false, "")
        record(f"{tool} missed", missed, "")
    results.write()


if __name__ == "__main__":
    main()
