"""`make bench-compare BASE=REV [BENCH=name,...] [ROUNDS=3]`: the same benches on the code of
REV and on the working tree, interleaved in one run, then each figure's new/old ratio.

REV is checked out as a git worktree in .bench-compare/ (ignored) with its own environment
(`uv sync --frozen` there). Both sides run this tree's bench scripts, so the measurement is
the same and only the code measured differs: a script finds the tools and packages next to
the interpreter that runs it, and each side runs with its own. Rounds alternate the order
(old, new, then new, old) so a drift of the machine's load hits both sides alike. Results go
to a temporary folder: bench/results/ is left as it was.

For each figure, the ratio is median(new) / median(old), with the range of the per-round
ratios. Its noise is the larger relative range (max - min) / median of the two sides' own
samples. A figure of ours (peers' figures are there to show the machine's drift) is flagged
when it is worse by more than THRESHOLD and by more than its noise; the exit code is then 1.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from _results import ROOT, load_average, read
from suite import select

THRESHOLD = 0.10
WORKTREES = ROOT / ".bench-compare"
FLAGGED_KINDS = ("ours", "ratios")


@dataclass(frozen=True)
class Change:
    """One figure of one bench, old code against new."""

    kind: str  # ours | peers | ratios
    label: str
    unit: str
    better: str  # lower | higher | none
    old: tuple[float, ...]
    new: tuple[float, ...]

    @property
    def ratio(self) -> float:
        return ratio(self.new, self.old)

    @property
    def rounds(self) -> tuple[float, float]:
        per_round = [ratio([n], [o]) for o, n in zip(self.old, self.new, strict=False)]
        return min(per_round), max(per_round)

    @property
    def noise(self) -> float:
        return max(spread(self.old), spread(self.new))

    @property
    def worse(self) -> float:
        return worse_by(self.ratio, self.better)

    @property
    def flagged(self) -> bool:
        return self.kind in FLAGGED_KINDS and flag(self.worse, self.noise)


def ratio(new: Sequence[float], old: Sequence[float]) -> float:
    """median(new) / median(old); 1 when both are 0, infinite when only old is."""
    a, b = statistics.median(new), statistics.median(old)
    if b == 0:
        return 1.0 if a == 0 else float("inf")
    return a / b


def spread(samples: Sequence[float]) -> float:
    """(max - min) / median: 0.2 when the samples range over 20% of their median."""
    middle = statistics.median(samples)
    if middle == 0:
        return 0.0 if max(samples) == min(samples) else float("inf")
    return (max(samples) - min(samples)) / abs(middle)


def worse_by(change: float, better: str) -> float:
    """How many times worse the new figure is (below 1: better), given which way is better."""
    if better == "lower":
        return change
    if better == "higher":
        return float("inf") if change == 0 else 1 / change
    return 1.0


def flag(worse: float, noise: float, threshold: float = THRESHOLD) -> bool:
    """Worse by more than the threshold, and by more than the noise measured."""
    return worse > 1 + threshold and worse > 1 + noise


def changes(old_runs: Sequence[dict[str, Any]], new_runs: Sequence[dict[str, Any]]) -> list[Change]:
    """Every figure found in all runs of both sides, in the order the bench wrote them."""
    found: list[Change] = []
    for kind in ("ours", "peers", "ratios"):
        for label, figure in old_runs[0][kind].items():
            runs = [*old_runs, *new_runs]
            if not all(label in run[kind] for run in runs):
                continue  # a figure one side does not have: nothing to compare
            found.append(
                Change(
                    kind=kind,
                    label=label,
                    unit=figure["unit"],
                    better=figure["better"],
                    old=tuple(run[kind][label]["value"] for run in old_runs),
                    new=tuple(run[kind][label]["value"] for run in new_runs),
                )
            )
    return found


def number(value: float) -> str:
    if value == float("inf"):
        return "inf"
    return f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"


def table(bench: str, found: Sequence[Change]) -> list[str]:
    """The lines printed for one bench."""
    head = f"{'':46} {'old':>9} {'new':>9} {'new/old':>8} {'per round':>12} {'noise':>6}"
    lines = [f"{bench}", head]
    for c in found:
        low, high = c.rounds
        label = f"{c.label} ({c.unit})" if c.unit else c.label
        if c.kind == "peers":
            label += " [peer]"
        mark = "  WORSE" if c.flagged else ""
        lines.append(
            f"  {label[:44]:44} {number(statistics.median(c.old)):>9} "
            f"{number(statistics.median(c.new)):>9} {c.ratio:8.3f} "
            f"{f'{low:.2f}-{high:.2f}':>12} {f'{c.noise:.0%}':>6}{mark}"
        )
    return lines


def base_worktree(rev: str, uv: str) -> tuple[str, Path]:
    """The commit of REV and the interpreter of its environment (made on first use)."""
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", f"{rev}^{{commit}}"],
        capture_output=True,
        text=True,
    )
    if commit.returncode:
        raise SystemExit(f"bench-compare: BASE={rev} is not a commit here")
    sha = commit.stdout.strip()
    tree = WORKTREES / sha[:12]
    if not (tree / ".git").exists():
        WORKTREES.mkdir(exist_ok=True)
        # --force: the folder may have been deleted while git still lists it
        add = ["worktree", "add", "--force", "--detach", "--quiet", str(tree), sha]
        subprocess.run(["git", "-C", str(ROOT), *add], check=True)
    env = {
        k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "UV_PROJECT_ENVIRONMENT")
    }
    subprocess.run(
        [uv, "sync", "--frozen", "--all-packages", "--quiet", "--compile-bytecode"],
        cwd=tree,
        env=env,
        check=True,
    )
    return sha, tree / ".venv" / "bin" / "python"


def run_once(python: Path, argv: list[str], commit: str, out: Path) -> dict[str, Any]:
    env = {**os.environ, "BENCH_RESULTS": str(out), "BENCH_COMMIT": commit}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # start-up measured with bytecode, as users run
    env.pop("VIRTUAL_ENV", None)
    done = subprocess.run(
        [str(python), str(ROOT / "bench" / argv[0]), *argv[1:]],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode or not out.exists():
        sys.stderr.write(done.stdout[-3000:] + done.stderr[-3000:])
        raise SystemExit(f"bench-compare: {' '.join(argv)} failed with {python}")
    return read(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", metavar="REV")
    parser.add_argument("--bench", default="", help="names, comma-separated (default: all)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--uv", default=shutil.which("uv") or "uv")
    args = parser.parse_args()
    benches = select([n for n in args.bench.replace(",", " ").split() if n])
    sha, old_python = base_worktree(args.base, args.uv)
    new_python = Path(sys.executable)
    sides = {"old": (old_python, sha), "new": (new_python, "working tree")}
    print(
        f"bench-compare: old = {args.base} ({sha[:12]}), new = the working tree; "
        f"{args.rounds} rounds, interleaved; load average {load_average()} on "
        f"{os.cpu_count()} cores",
        flush=True,
    )
    flagged = []
    with tempfile.TemporaryDirectory(prefix="bench-compare-") as tmp:
        for name, argv in benches.items():
            runs: dict[str, list[dict[str, Any]]] = {"old": [], "new": []}
            for round_ in range(args.rounds):
                for side in ("old", "new") if round_ % 2 == 0 else ("new", "old"):
                    python, commit = sides[side]
                    print(f"  {name}: round {round_ + 1}, {side}", file=sys.stderr, flush=True)
                    out = Path(tmp, f"{name}-{side}-{round_}.json")
                    runs[side].append(run_once(python, argv, commit, out))
            found = changes(runs["old"], runs["new"])
            print("\n".join(table(name, found)), flush=True)
            flagged += [f"{name}: {c.label}" for c in found if c.flagged]
    print(f"load average {load_average()} at the end")
    if flagged:
        print(
            f"flagged (worse by more than {THRESHOLD:.0%} and beyond the noise): "
            + "; ".join(flagged)
        )
        raise SystemExit(1)
    print(f"flagged: none (none worse by more than {THRESHOLD:.0%} beyond its noise)")


if __name__ == "__main__":
    main()
