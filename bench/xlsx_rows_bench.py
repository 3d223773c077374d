"""fieldcheck's xlsx rows (read through readers.safety.Package) against openpyxl's read-only
mode, which fieldcheck used before: one generated sheet, the same rows, the same session.

    python bench/xlsx_rows_bench.py [ROWS]
"""

from __future__ import annotations

import sys
import tempfile
import time
from datetime import date
from pathlib import Path

import openpyxl
from _results import Results

from officecli.readers.tabular import open_table
from officecli.readers.tabular.table import cell_text


def build(path: Path, rows: int) -> None:
    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet("data")
    sheet.append(["id", "name", "amount", "rate", "day", "dept", "ok", "note"])
    for i in range(rows):
        sheet.append(
            [i, f"name {i}", i * 100, i / 7, date(2026, 1, 1 + i % 28), "営業", i % 2 == 0, ""]
        )
    book.save(path)


def ours(path: Path) -> tuple[float, int]:
    start = time.perf_counter()
    with open_table(path) as table:
        count = sum(len(batch) for _, batch in table.chunks)
    return time.perf_counter() - start, count


def openpyxl_read_only(path: Path) -> tuple[float, int]:
    start = time.perf_counter()
    book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    cells = book.worksheets[0].iter_rows(values_only=True)
    next(cells)
    count = sum(1 for values in cells if any(cell_text(v) for v in values))
    book.close()
    return time.perf_counter() - start, count


def main() -> None:
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    results = Results(
        f"fieldcheck's xlsx rows (through the zip-bomb limits) against openpyxl read-only, "
        f"{rows:,} x 8"
    )
    with tempfile.TemporaryDirectory() as work:
        path = Path(work) / "data.xlsx"
        build(path, rows)
        (t_ours, n_ours), (t_peer, n_peer) = ours(path), openpyxl_read_only(path)
    assert n_ours == n_peer == rows, (n_ours, n_peer)
    print(
        f"xlsx rows, {rows:,} x 8: readers.tabular {t_ours:.2f} s, openpyxl read-only "
        f"{t_peer:.2f} s, ratio {t_peer / t_ours:.2f}x"
    )
    results.ours("readers.tabular", t_ours, "s")
    results.peer("openpyxl read-only", t_peer, "s")
    results.ratio("openpyxl / ours", t_peer / t_ours, "higher", goal=">= 1")
    results.write()


if __name__ == "__main__":
    main()
