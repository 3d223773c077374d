"""Helpers shared by the benchmarks: run commands repeatedly and compare medians."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) pid has used, from /proc/PID/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tool(name: str) -> str:
    """Path of a console script installed next to this interpreter."""
    return str(VENV_BIN / name)


def wall_times(
    argv: Sequence[str], runs: int, cwd: Path | None = None, env: dict[str, str] | None = None
) -> list[float]:
    """Wall-clock seconds of `runs` executions of argv (output discarded), after one warm-up."""
    times = []
    for i in range(runs + 1):
        t0 = time.perf_counter()
        subprocess.run(
            argv,
            cwd=cwd,
            env=env or os.environ.copy(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
        if i:
            times.append(time.perf_counter() - t0)
    return times


def compare(
    label_argv: dict[str, Sequence[str]], runs: int, cwd: Path | None = None
) -> dict[str, float]:
    """Median wall time per label, interleaving the commands so drift hits all alike."""
    samples: dict[str, list[float]] = {k: [] for k in label_argv}
    for _ in range(runs):
        for label, argv in label_argv.items():
            samples[label] += wall_times(argv, 1, cwd=cwd)
    return {k: statistics.median(v) for k, v in samples.items()}


def print_table(medians: dict[str, float], baseline: str) -> None:
    base = medians[baseline]
    print(f"{'command':40} {'median ms':>10} {'ratio':>7}")
    for label, value in medians.items():
        print(f"{label:40} {value * 1000:10.1f} {value / base:7.2f}")
