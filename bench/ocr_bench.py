"""doc2md OCR throughput: a scanned 8-page PDF (English and Japanese), pages per second with
-j 1 and -j 2, and the character recall against the text drawn on the pages.

The pages are made the way the tests make them (packages/officecli/tests/doc2md/scans.py).
markitdown's OCR plugin sends pictures to an LLM service, which cannot run offline here, so
doc2md is measured alone.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "packages" / "officecli" / "tests"))

from _results import Results  # noqa: E402
from officecli_testkit.scans import (  # noqa: E402
    ENGLISH,
    JAPANESE,
    recall,
    save_pdf,
    scanned_page,
)

PAGES = 8
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 3
DOC2MD = str(Path(sys.executable).parent / "doc2md")


def main() -> None:
    results = Results(
        f"doc2md OCR of a scanned {PAGES}-page PDF (English and Japanese), median of {RUNS}; "
        "markitdown's OCR needs an LLM service, so doc2md runs alone"
    )
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        lines = ENGLISH + JAPANESE
        pdf = save_pdf(work / "scan.pdf", *(scanned_page(lines) for _ in range(PAGES)))
        print(f"{PAGES} scanned pages (1800 x 1200 px at 300 dpi), {RUNS} runs each")
        print(f"{'jobs':>4} {'median s':>9} {'pages/s':>8} {'recall':>7}")
        for jobs in (1, 2):
            times = []
            for _ in range(RUNS):
                out = work / f"out-{jobs}"
                t0 = time.perf_counter()
                subprocess.run(
                    [DOC2MD, str(pdf), "-d", str(out), "-j", str(jobs), "--ocr-lang", "jpn+eng"],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    check=True,
                )
                times.append(time.perf_counter() - t0)
            median = statistics.median(times)
            score = recall(lines * PAGES, (work / f"out-{jobs}" / "scan.md").read_text("utf-8"))
            print(f"{jobs:>4} {median:9.2f} {PAGES / median:8.2f} {score:7.3f}")
            results.ours(f"-j {jobs}", PAGES / median, "pages/s", better="higher")
            results.ours(f"-j {jobs} character recall", score, "", better="higher")
    results.write()


if __name__ == "__main__":
    main()
