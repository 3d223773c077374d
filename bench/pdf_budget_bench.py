"""What the PDF budgets cost: each corpus PDF read with every decoded stream measured first
and every operator, form and drawn object counted (as doc2md reads it), and with both
turned off, interleaved in one process; the best CPU time of RUNS reads each way, and the
bytes measured.

    uv run --frozen python bench/pdf_budget_bench.py [RUNS]
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

from _results import Results

from officecli.readers.model import ReadOptions
from officecli.readers.pdf import budget as pdf_budget
from officecli.readers.pdf import reader as pdf
from officecli.readers.safety import ExpansionBudget

CORPUS = Path(__file__).resolve().parent.parent / ".." / "shared" / "corpus" / "markitdown"
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 7


@contextlib.contextmanager
def unmeasured(_budget: ExpansionBudget, _where: str, _drawing: Any = None) -> Iterator[None]:
    yield


def cpu_time(path: Path) -> float:
    start = time.process_time()
    pdf.read_pdf(path, ReadOptions(ocr="never"))
    return time.process_time() - start


def measuring(path: Path) -> tuple[int, float]:
    """The bytes taken from the budget reading `path`, and the CPU seconds spent measuring
    streams (a figure the machine's load hardly moves, unlike the difference of two reads)."""
    budgets: list[ExpansionBudget] = []
    spent = [0.0]
    real_budget, real_cost = ExpansionBudget, pdf_budget.stream_cost

    def keep(label: str, limit: int) -> ExpansionBudget:
        budgets.append(real_budget(label, limit))
        return budgets[-1]

    def timed_cost(stream: Any, limit: int) -> int:
        start = time.process_time()
        try:
            return real_cost(stream, limit)
        finally:
            spent[0] += time.process_time() - start

    with (
        mock.patch.object(pdf, "ExpansionBudget", keep),
        mock.patch.object(pdf_budget, "stream_cost", timed_cost),
    ):
        pdf.read_pdf(path, ReadOptions(ocr="never"))
    return budgets[0].limit - budgets[0].left, spent[0]


def main() -> None:
    results = Results(
        f"the PDF expansion budget: corpus PDFs read with streams measured and without, best "
        f"CPU time of {RUNS}"
    )
    head = f"{'file':45} {'KiB':>6} {'measured':>10} {'off ms':>8} {'on ms':>8} {'diff':>6}"
    print(head + f" {'measuring ms':>12}")
    total_on = total_off = 0.0
    for path in sorted(CORPUS.glob("*.pdf")):
        on, off = [], []
        for _ in range(RUNS):
            on.append(cpu_time(path))
            with mock.patch.object(pdf, "measured", unmeasured):
                off.append(cpu_time(path))
        best_on, best_off = min(on), min(off)
        total_on, total_off = total_on + best_on, total_off + best_off
        size = path.stat().st_size // 1024
        taken, spent = measuring(path)
        print(
            f"{path.name[:45]:45} {size:6} {taken:10} {best_off * 1000:8.1f} "
            f"{best_on * 1000:8.1f} {(best_on / best_off - 1) * 100:+5.1f}% {spent * 1000:12.2f}"
        )
    print(
        f"{'all':45} {'':6} {'':10} {total_off * 1000:8.1f} {total_on * 1000:8.1f} "
        f"{(total_on / total_off - 1) * 100:+5.1f}%"
    )
    print(f"budget {pdf_budget.MAX_EXPANDED_BYTES} bytes a file")
    results.ours("every corpus PDF, budget measured", total_on * 1000, "ms")
    results.peer("the same, unmeasured", total_off * 1000, "ms")
    results.ratio("measured / unmeasured", total_on / total_off)
    results.write()


if __name__ == "__main__":
    main()
