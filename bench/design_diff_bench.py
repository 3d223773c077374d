"""design-diff vs daff on two 20,000 x 20 design workbooks with planted changes, same run.

After the base workbook, the new one has 1% of its rows with one changed cell, 50 rows
inserted, 50 rows moved elsewhere and 100 removed (400 changes). design-diff compares the
two .xlsx files keyed by 物理名; daff (installed into bench/.venv-daff, never a project
dependency) compares CSV exports of the same sheets keyed by the same column, twice: its
Python library driven as its documentation shows (PythonTableView, Coopy.compareTables
with the key in CompareFlags, TableDiff.hilite), and its command line (`daff diff --id`).
Each tool's findings are scored against the planted changes: false positives and misses
per kind, wall and CPU time. Goal: no false positive, no miss; design-diff at most 0.67x
the library's wall and CPU time, and at least 5x faster than the command line. The
machine may be shared: each round prints the load average before it, and RUNS rounds
(the three tools in turn) end with the median ratios. Usage: design_diff_bench.py [ROWS] [RUNS]
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
from collections.abc import Callable
from pathlib import Path

from _results import Results

ROOT = Path(__file__).resolve().parent.parent
PEER_VENV = ROOT / "bench" / ".venv-daff"
PEER_PYTHON = PEER_VENV / "bin" / "python"
ROWS = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
# a median of 5 by default: one run is as noisy as the goal is tight
RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else 5
CHANGED, INSERTED, MOVED, REMOVED = ROWS // 100, 50, 50, 100
KEY = "物理名"
HEADER = [KEY, "論理名", "型", "必須", "桁数", "形式", "初期値", "区分", "説明",
          "備考", "作成者", "更新者", "版", "画面", "テーブル",
          "最小値", "最大値", "単位", "例", "参照"]  # fmt: skip
TYPES = ["string", "integer", "number", "boolean", "date"]

# Per kind of change (changed, added, moved, removed): the rows' keys, or (key, column) for
# the changed cells.
Changes = dict[str, set[str | tuple[str, str]]]

PEER_SCRIPT = """
import csv, sys
import daff
def load(path):
    with open(path, encoding="utf-8", newline="") as fh:
        return [row for row in csv.reader(fh)]
old, new = load(sys.argv[1]), load(sys.argv[2])
flags = daff.CompareFlags()
flags.addPrimaryKey(sys.argv[3])
alignment = daff.Coopy.compareTables(daff.PythonTableView(old), daff.PythonTableView(new), flags).align()
out = []
daff.TableDiff(alignment, flags).hilite(daff.PythonTableView(out))
csv.writer(sys.stdout).writerows(out)
"""


def base_rows(rng: random.Random) -> list[list[str]]:
    rows = []
    for i in range(ROWS):
        rows.append([f"item_{i:05d}", f"項目{i}", rng.choice(TYPES), rng.choice(["○", ""]),
                     str(rng.randint(1, 200)), "", "", "レスポンス", f"説明 {i}", "",
                     "sato", "suzuki", "1.0", f"SCR{i % 40:03d}", f"T{i % 90:02d}",
                     "0", str(rng.randint(1, 9999)), rng.choice(["", "件", "円"]), f"例{i % 7}",
                     f"REF-{i % 300}"])  # fmt: skip
    return rows


def plant(rows: list[list[str]], rng: random.Random) -> tuple[list[list[str]], Changes]:
    """The new version and the planted truth (changed cells, inserted and moved keys)."""
    new = [list(r) for r in rows]
    truth: Changes = {"changed": set(), "added": set(), "moved": set(), "removed": set()}
    changed_rows: set[str] = set()
    for i in rng.sample(range(ROWS), CHANGED):
        col = rng.randrange(1, len(HEADER))
        new[i][col] = new[i][col] + " 改"
        truth["changed"].add((new[i][0], HEADER[col]))
        changed_rows.add(new[i][0])
    movers = [r for r in new if r[0] not in changed_rows]  # a moved row has no changed cell
    for row in rng.sample(movers, MOVED):
        new.remove(row)
        new.insert(rng.randrange(len(new) + 1), row)
        truth["moved"].add(row[0])
    for n in range(INSERTED):
        at = rng.randrange(len(new) + 1)
        new.insert(at, [f"new_{n:03d}", "新", "string", "", "10", *[""] * (len(HEADER) - 5)])
        truth["added"].add(f"new_{n:03d}")
    changed_keys = changed_rows | truth["moved"] | truth["added"]
    for row in rng.sample([r for r in new if r[0] not in changed_keys], REMOVED):
        new.remove(row)
        truth["removed"].add(row[0])
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


def ours(old: Path, new: Path) -> tuple[float, float, Changes]:
    argv = [sys.executable, "-c", "from officecli.design_diff.cli import main; main()"]
    wall, cpu, out = timed(
        [*argv, "excel", "--before", str(old), "--after", str(new), "--key", KEY]
    )
    found: Changes = {"changed": set(), "added": set(), "moved": set(), "removed": set()}
    kinds = {"cell.changed": "changed", "row.added": "added", "row.moved": "moved",
             "row.removed": "removed"}  # fmt: skip
    for f in json.loads(out)["findings"]:
        key = f["location"].partition(f"({KEY}=")[2].rstrip(")")
        kind = kinds.get(f["rule_id"], f["rule_id"])
        found.setdefault(kind, set()).add((key, f["field"]) if kind == "changed" else key)
    return wall, cpu, found


def daff_found(out: str) -> Changes:
    """The changes in daff's highlighter diff (CSV): +++ added, --- removed, : moved,
    -> a row with changed cells (old->new in each changed cell)."""
    rows = list(csv.reader(out.splitlines()))
    header = rows[0]
    key_at = header.index(KEY)
    found: Changes = {"changed": set(), "added": set(), "removed": set(), "moved": set()}
    kinds = {"+++": "added", "---": "removed", ":": "moved"}
    for row in rows[1:]:
        action, key = row[0], row[key_at].split("->")[-1]
        if action in kinds:
            found[kinds[action]].add(key)
        if "->" in action:
            for name, cell in zip(header, row, strict=False):
                if name != "@@" and "->" in cell:
                    found["changed"].add((key, name))
    return found


def peer_library(old: Path, new: Path) -> tuple[float, float, Changes]:
    wall, cpu, out = timed([str(PEER_PYTHON), "-c", PEER_SCRIPT, str(old), str(new), KEY])
    return wall, cpu, daff_found(out)


def peer_command(old: Path, new: Path) -> tuple[float, float, Changes]:
    daff = str(PEER_VENV / "bin" / "daff")
    wall, cpu, out = timed([daff, "diff", "--id", KEY, "--no-color", str(old), str(new)])
    return wall, cpu, daff_found(out)


def score(found: Changes, truth: Changes) -> str:
    parts = []
    for kind in sorted(set(found) | set(truth)):
        extra, missed = (
            len(found.get(kind, set()) - truth.get(kind, set())),
            len(truth.get(kind, set()) - found.get(kind, set())),
        )
        parts.append(f"{kind}: {len(found.get(kind, set()))} found, {extra} false, {missed} missed")
    return "; ".join(parts)


def errors(found: Changes, truth: Changes) -> tuple[int, int]:
    """False positives and misses over every kind of change."""
    kinds = set(found) | set(truth)
    false = sum(len(found.get(k, set()) - truth.get(k, set())) for k in kinds)
    return false, sum(len(truth.get(k, set()) - found.get(k, set())) for k in kinds)


def main() -> None:
    results = Results(
        f"design-diff (xlsx) against daff's library and command line (CSV): {ROWS:,} x "
        f"{len(HEADER)}, {CHANGED + INSERTED + MOVED + REMOVED} planted changes, median of {RUNS}"
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
              f"{INSERTED} inserted rows, {MOVED} moved rows, {REMOVED} removed rows")  # fmt: skip
        tools: dict[str, Callable[[], tuple[float, float, Changes]]] = {
            "design-diff": lambda: ours(folder / "old.xlsx", folder / "new.xlsx"),
            "daff library": lambda: peer_library(folder / "old.csv", folder / "new.csv"),
            "daff command": lambda: peer_command(folder / "old.csv", folder / "new.csv"),
        }
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in tools}
        errors_of: dict[str, tuple[int, int]] = {}
        for _run in range(RUNS):
            print("load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
            for name, run in tools.items():
                wall, cpu, found = run()
                times[name].append((wall, cpu))
                errors_of[name] = errors(found, truth)  # the last round's
                print(f"{name:13} {wall:7.2f} s wall {cpu:6.2f} s CPU  {score(found, truth)}")
        print("load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
        ours_times = times["design-diff"]
        for name, goal in (("daff library", "<= 0.67x"), ("daff command", "<= 0.20x")):
            walls = [o[0] / p[0] for o, p in zip(ours_times, times[name], strict=True)]
            cpus = [o[1] / p[1] for o, p in zip(ours_times, times[name], strict=True)]
            print(
                f"design-diff / {name}: median {statistics.median(walls):.2f}x wall, "
                f"{statistics.median(cpus):.2f}x CPU over {RUNS} round(s), highest "
                f"{max(walls):.2f}x wall, {max(cpus):.2f}x CPU (goal {goal})"
            )
            bound = goal.removesuffix("x")
            results.ratio(f"design-diff / {name}, wall", statistics.median(walls), goal=bound)
            results.ratio(f"design-diff / {name}, CPU", statistics.median(cpus), goal=bound)
    for name, samples in times.items():
        record = results.ours if name == "design-diff" else results.peer
        record(f"{name} wall", statistics.median(s[0] for s in samples), "s")
        record(f"{name} CPU", statistics.median(s[1] for s in samples), "s")
        false, missed = errors_of[name]
        record(f"{name} false positives", false, "")
        record(f"{name} missed", missed, "")
    results.write()


if __name__ == "__main__":
    main()
