"""The benches `make bench` runs, each writing bench/results/NAME.json (NAME: the script and
its arguments, see _results.bench_name), in the order README's performance table lists them.

    python bench/suite.py [--list] [NAME ...]      (no NAME: every bench)
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from _results import bench_name

BENCH = Path(__file__).resolve().parent
SUITE: list[list[str]] = [
    ["cli_startup.py"],
    ["agent_context.py"],
    ["procler_status.py"],
    ["procler_mcp.py"],
    ["procler_rest.py"],
    ["procler_scale.py"],
    ["procler_scale.py", "1000"],
    ["recipe_bench.py"],
    ["procler_readiness.py"],
    ["procler_recovery.py"],
    ["procler_pg_stop.py"],
    ["procler_events.py"],
    ["procler_schedule.py"],
    ["procler_reload.py"],
    ["logs_supervisor.py"],
    ["logs_capture.py"],
    ["logs_tail.py"],
    ["user_regex.py"],
    ["doc2md_bench.py"],
    ["ocr_bench.py"],
    ["pdf_budget_bench.py"],
    ["fieldcheck_bench.py"],
    ["xlsx_rows_bench.py"],
    ["design_diff_bench.py"],
    ["office_replace_bench.py"],
]
BENCHES: dict[str, list[str]] = {bench_name(argv[0], argv[1:]): argv for argv in SUITE}


def select(names: list[str]) -> dict[str, list[str]]:
    """The benches named (all when none is), in suite order; an unknown name is an error."""
    unknown = [n for n in names if n not in BENCHES]
    if unknown:
        raise SystemExit(f"unknown bench {', '.join(unknown)}; `--list` shows them")
    return {n: argv for n, argv in BENCHES.items() if not names or n in names}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="NAME")
    parser.add_argument("--list", action="store_true", help="print the names and commands")
    args = parser.parse_args()
    chosen = select(args.names)
    if args.list:
        for name, argv in chosen.items():
            print(f"{name:24} python bench/{' '.join(argv)}")
        return
    failed = []
    for name, argv in chosen.items():
        print(f"\n== {name}: python bench/{' '.join(argv)}", flush=True)
        if subprocess.run([sys.executable, str(BENCH / argv[0]), *argv[1:]]).returncode:
            failed.append(name)
    if failed:
        raise SystemExit(f"failed: {', '.join(failed)}")


if __name__ == "__main__":
    main()
