"""What every bench writes: bench/results/NAME.json, so a figure quoted anywhere comes from a
file that says when, on what and at which commit it was measured.

A script makes one `Results` when it starts (the load average before), records its own
figures, the peers' figures from the same run and the ratios between them, then `write()`s
(the load average after). README's performance table is generated from these files
(bench/readme_table.py) and `make bench-compare` reads them (bench/compare.py).

NAME is the script's name, with its arguments when it has any (`procler_scale-1000`).
BENCH_RESULTS=PATH writes elsewhere (bench-compare does, so a comparison never replaces the
figures README shows); BENCH_COMMIT names the code measured when it is not this checkout's.
"""

from __future__ import annotations

import json
import operator
import os
import platform
import subprocess
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
SCHEMA_VERSION = 1
Better = Literal["lower", "higher", "none"]
GOALS: dict[str, Callable[[float, float], bool]] = {
    "<=": operator.le,
    ">=": operator.ge,
    "<": operator.lt,
    ">": operator.gt,
    "==": operator.eq,
}


def bench_name(script: str, args: Sequence[str]) -> str:
    """`procler_scale.py` with `1000` -> `procler_scale-1000`."""
    return "-".join([Path(script).stem, *args])


def significant(value: float, digits: int = 4) -> float | int:
    """The value with `digits` significant digits (an int stays an int): a figure keeps what
    the machine can measure, not the float's noise."""
    if isinstance(value, int):  # bool too
        return int(value)
    return float(f"{value:.{digits}g}")


def goal_met(value: float, goal: str) -> bool:
    """`goal` is an operator and a bound, `<= 1.3`, in the figure's own unit."""
    op, _, bound = goal.partition(" ")
    if op not in GOALS:
        raise ValueError(f"goal {goal!r}: expected one of {sorted(GOALS)} then a number")
    return GOALS[op](value, float(bound))


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def git(*args: str) -> str:
    """git's output without its last newline (a porcelain line starts with a space that
    must stay: " M path")."""
    done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True)
    return done.stdout.rstrip() if done.returncode == 0 else ""


def measured_code() -> tuple[str, bool]:
    """The commit measured and whether the checkout differed from it (results files aside)."""
    if os.environ.get("BENCH_COMMIT"):
        return os.environ["BENCH_COMMIT"], False
    changed = [
        line
        for line in git("status", "--porcelain", "--untracked-files=no").splitlines()
        if not line[3:].startswith("bench/results/")
    ]
    return git("rev-parse", "HEAD") or "unknown", bool(changed)


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


class Results:
    """The figures of one run of one bench, written as bench/results/NAME.json."""

    def __init__(self, title: str, argv: Sequence[str] | None = None) -> None:
        argv = list(sys.argv if argv is None else argv)
        self.name = bench_name(argv[0], argv[1:])
        self.command = " ".join(["python", f"bench/{Path(argv[0]).name}", *argv[1:]])
        self.title = title
        self.load_before = load_average()
        self.figures: dict[str, dict[str, dict[str, Any]]] = {"ours": {}, "peers": {}, "ratios": {}}
        self.skipped: dict[str, str] = {}
        self.notes: list[str] = []

    def _add(
        self, kind: str, label: str, value: float, unit: str, better: Better, goal: str | None
    ) -> None:
        figure: dict[str, Any] = {"value": significant(value), "unit": unit, "better": better}
        if goal is not None:
            figure["goal"] = goal
            figure["met"] = goal_met(value, goal)
        self.figures[kind][label] = figure

    def ours(
        self,
        label: str,
        value: float,
        unit: str,
        better: Better = "lower",
        goal: str | None = None,
    ) -> None:
        """One of our own figures (`better`: which way bench-compare calls an improvement)."""
        self._add("ours", label, value, unit, better, goal)

    def peer(self, label: str, value: float, unit: str, better: Better = "lower") -> None:
        """A peer's figure (or the floor's), measured in the same run."""
        self._add("peers", label, value, unit, better, None)

    def ratio(
        self, label: str, value: float, better: Better = "lower", goal: str | None = None
    ) -> None:
        """Ours against a peer or a floor, same run: `procler status / python3 -c pass`."""
        self._add("ratios", label, value, "x", better, goal)

    def skip_peer(self, peer: str, reason: str) -> None:
        """A peer that could not run here (not installable, not offline...), and why."""
        self.skipped[peer] = reason

    def note(self, text: str) -> None:
        self.notes.append(text)

    def document(self) -> dict[str, Any]:
        commit, dirty = measured_code()
        return {
            "schema_version": SCHEMA_VERSION,
            "bench": self.name,
            "title": self.title,
            "command": self.command,
            "commit": commit,
            "dirty": dirty,
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "machine": {
                "cores": os.cpu_count(),
                "cpu": cpu_model(),
                "python": platform.python_version(),
                "load_before": self.load_before,
                "load_after": load_average(),
            },
            **self.figures,
            "skipped_peers": self.skipped,
            "notes": self.notes,
        }

    def write(self) -> Path:
        path = Path(os.environ.get("BENCH_RESULTS") or RESULTS / f"{self.name}.json")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.document(), indent=2, ensure_ascii=False) + "\n")
        print(f"results: {path}", file=sys.stderr)
        return path


def read(path: Path) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(path.read_text())
    return document
