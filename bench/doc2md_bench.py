"""doc2md against markitdown on ../shared/corpus/markitdown/: total wall time, and per
file the fidelity of each tool's Markdown as a renderer reads it (bench/_fidelity.py);
then doc2md against pandoc one process per file, on the docx/pptx/xlsx pandoc reads.

markitdown is not a project dependency: it is installed into bench/.venv-markitdown
(`uv venv` + `uv pip install 'markitdown[docx,pptx,xlsx,pdf]'`) on first use.
pandoc is Debian's package: `apt-get install pandoc` (the part is skipped without it).
Against markitdown each tool converts every file in one process; against pandoc each file
is a process of its own (as `doc2md FILE` and `pandoc FILE` run), pictures written by both.
Medians of RUNS interleaved runs; against pandoc, wall time and CPU time (user + system).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _fidelity import Fidelity, fidelity, reference_text, tokens
from _results import Results

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / ".." / "shared" / "corpus" / "markitdown"
VENV = ROOT / "bench" / ".venv-markitdown"
PEER = VENV / "bin" / "python"
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
# Python's bytecode caches are used as users run (an environment that turns them off makes
# every start compile doc2md's modules again); the warm-up run writes them.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
EXTS = {".docx", ".xlsx", ".xls", ".pptx", ".pdf"}
MARKITDOWN_SCRIPT = """
import sys, pathlib
from markitdown import MarkItDown
out = pathlib.Path(sys.argv[1]); md = MarkItDown()
for name in sys.argv[2:]:
    p = pathlib.Path(name)
    try:
        (out / (p.name + '.md')).write_text(md.convert(str(p)).text_content, 'utf-8')
    except Exception as exc:
        print(p.name, type(exc).__name__, exc, file=sys.stderr)
"""


def ensure_peer() -> None:
    if PEER.exists():
        return
    subprocess.run(["uv", "venv", "-q", str(VENV), "--python", "3.11"], check=True)
    subprocess.run(
        ["uv", "pip", "install", "-q", "--python", str(PEER), "markitdown[docx,pptx,xlsx,pdf]"],
        check=True,
    )


def timed(argv: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t0


def timed_cpu(argv: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run; CPU is the child's user + system time."""
    t0 = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _pid, _status, usage = os.wait4(child.pid, 0)
    return time.perf_counter() - t0, usage.ru_utime + usage.ru_stime


PANDOC_READS = ("docx", "pptx", "xlsx")


def pandoc_files(files: list[str]) -> tuple[str, list[str]]:
    """(pandoc's version, the corpus files of the formats it reads: docx, and pptx and xlsx
    from pandoc 3 on); without pandoc ("", [])."""
    pandoc = shutil.which("pandoc")
    if pandoc is None:
        return "", []
    listed = subprocess.run([pandoc, "--list-input-formats"], capture_output=True, text=True)
    formats = set(listed.stdout.split()) & set(PANDOC_READS)
    version = subprocess.run([pandoc, "--version"], capture_output=True, text=True)
    return version.stdout.split("\n")[0], [f for f in files if Path(f).suffix[1:] in formats]


def per_file(files: list[str], tmp: Path) -> list[float]:
    """Sums over the files of the median seconds: doc2md wall, pandoc wall, doc2md CPU,
    pandoc CPU; each file converted by a process of its own, interleaved."""
    print(f"{'file':28} {'doc2md ms':>10} {'pandoc ms':>10} {'wall':>6} {'CPU':>6}")
    sums = [0.0, 0.0, 0.0, 0.0]
    for name in files:
        source = Path(name)
        ours = [sys.executable, "-c", "from officecli.doc2md.cli import main; main()", name]
        ours += ["-d", str(tmp / "per-file" / source.name), "--continue-on-error"]
        peer = ["pandoc", "-f", source.suffix[1:], "-t", "gfm", name]
        peer += ["-o", str(tmp / f"{source.name}.md"), "--extract-media", str(tmp / "media")]
        timed_cpu(ours), timed_cpu(peer)  # warm-up
        runs = []
        for _ in range(RUNS):
            (ours_wall, ours_cpu), (peer_wall, peer_cpu) = timed_cpu(ours), timed_cpu(peer)
            runs.append((ours_wall, peer_wall, ours_cpu, peer_cpu))
        medians = [statistics.median(r[i] for r in runs) for i in range(4)]
        sums = [a + b for a, b in zip(sums, medians, strict=True)]
        print(
            f"{source.name:28} {medians[0] * 1000:10.1f} {medians[1] * 1000:10.1f} "
            f"{medians[0] / medians[1]:6.2f} {medians[2] / medians[3]:6.2f}"
        )
    return sums


def against_pandoc(files: list[str], tmp: Path) -> list[float] | None:
    """Sums of the per-file medians (doc2md wall, pandoc wall, doc2md CPU, pandoc CPU), or
    None without pandoc."""
    version, readable = pandoc_files(files)
    if not readable:
        print("pandoc: not installed (apt-get install pandoc); per-file comparison skipped")
        return None
    print(f"{version}: the {len(readable)} files it reads, one process per file, {RUNS} runs")
    sums = per_file(readable, tmp)
    wall, peer_wall, cpu, peer_cpu = sums
    print(f"sum of medians: doc2md {wall:.3f} s, pandoc {peer_wall:.3f} s")
    print(
        f"ratio doc2md / pandoc = {wall / peer_wall:.2f} wall, {cpu / peer_cpu:.2f} CPU "
        "(goal <= 1.0)"
    )
    return sums


def _read(path: Path) -> str:
    return path.read_text("utf-8") if path.exists() else ""


def _ours_markdown(out: Path, source: Path) -> Path:
    """The corpus has files that share a stem: <name>.md with --keep-ext; a doc2md without
    it (bench-compare's older side) named them <stem>.<ext>.md, or <stem>.md for one."""
    for name in (source.name, f"{source.stem}.{source.suffix[1:]}", source.stem):
        if (out / f"{name}.md").exists():
            return out / f"{name}.md"
    return out / f"{source.name}.md"


def keep_ext(entry: list[str]) -> list[str]:
    """--keep-ext where doc2md has it (an older doc2md names clashing stems itself)."""
    listed = subprocess.run([*entry, "capabilities"], capture_output=True, text=True)
    return ["--keep-ext"] if '"keep_ext"' in listed.stdout else []


def _row(name: str, ours: Fidelity, peer: Fidelity) -> str:
    cells = [f"{ours.recall:.0%} / {peer.recall:.0%}"]
    for attr in ("headings", "list_items", "tables", "table_rows"):
        cells.append(f"{getattr(ours, attr)} / {getattr(peer, attr)}")
    return f"| {name} | " + " | ".join(cells) + " |"


def fidelity_table(files: list[str], ours_dir: Path, peer_dir: Path) -> tuple[float, float]:
    print("| file | text recall (d2m / mid) | headings | list items | tables | table rows |")
    print("|---|---|---|---|---|---|")
    recalls: list[tuple[float, float]] = []
    for name in files:
        source = Path(name)
        reference = tokens(reference_text(source))
        ours = fidelity(_read(_ours_markdown(ours_dir, source)), reference)
        peer = fidelity(_read(peer_dir / f"{source.name}.md"), reference)
        recalls.append((ours.recall, peer.recall))
        print(_row(source.name, ours, peer))
    mean_ours = statistics.mean(r[0] for r in recalls)
    mean_peer = statistics.mean(r[1] for r in recalls)
    print(f"| mean | {mean_ours:.1%} / {mean_peer:.1%} | | | | |")
    return mean_ours, mean_peer


def main() -> None:
    results = Results(
        f"doc2md against markitdown on the shared corpus, one process each for all files, "
        f"median of {RUNS}; mean text recall; against pandoc, one process per file it reads"
    )
    ensure_peer()
    files = sorted(str(p) for p in CORPUS.iterdir() if p.suffix in EXTS)
    with tempfile.TemporaryDirectory() as tmp:
        ours_dir, peer_dir = Path(tmp, "ours"), Path(tmp, "peer")
        peer_dir.mkdir()
        ours = [sys.executable, "-c", "from officecli.doc2md.cli import main; main()"]
        naming = keep_ext(ours)
        ours += [*files, "-d", str(ours_dir), *naming, "--continue-on-error"]
        # markitdown reads no picture: doc2md's default reads the text of large pictures on
        # PDF pages with OCR (Tesseract); the like-for-like run leaves OCR out
        plain = [*ours[:3], *files, "-d", str(Path(tmp, "plain")), *naming]
        plain += ["--continue-on-error", "--ocr", "never"]
        peer = [str(PEER), "-c", MARKITDOWN_SCRIPT, str(peer_dir), *files]
        timed(ours), timed(plain), timed(peer)  # warm-up: file cache, .pyc files
        t_ours, t_plain, t_peer = [], [], []
        for _ in range(RUNS):
            t_ours.append(timed(ours))
            t_plain.append(timed(plain))
            t_peer.append(timed(peer))
        m_ours, m_plain = statistics.median(t_ours), statistics.median(t_plain)
        m_peer = statistics.median(t_peer)
        print(f"{len(files)} files, {RUNS} runs, median wall time")
        print(f"doc2md              {m_ours:7.2f} s (pictures on PDF text pages read by OCR)")
        print(f"doc2md --ocr never  {m_plain:7.2f} s")
        print(f"markitdown          {m_peer:7.2f} s")
        print(f"ratio markitdown / doc2md --ocr never = {m_peer / m_plain:.2f} (goal >= 3)")
        print(f"ratio markitdown / doc2md = {m_peer / m_ours:.2f}")
        print()
        recall = fidelity_table(files, ours_dir, peer_dir)
        print()
        pandoc = against_pandoc(files, Path(tmp))
    results.ours(f"doc2md, {len(files)} files", m_ours, "s")
    results.ours(f"doc2md --ocr never, {len(files)} files", m_plain, "s")
    results.peer(f"markitdown, {len(files)} files", m_peer, "s")
    results.ratio("markitdown / doc2md --ocr never", m_peer / m_plain, "higher", goal=">= 3")
    results.ratio("markitdown / doc2md", m_peer / m_ours, "higher")
    results.ours("doc2md mean text recall", recall[0] * 100, "%", "higher")
    results.peer("markitdown mean text recall", recall[1] * 100, "%", "higher")
    if pandoc is None:
        results.skip_peer("pandoc", "not installed: apt-get install pandoc")
    else:
        wall, peer_wall, cpu, peer_cpu = pandoc
        results.ours("doc2md, one process per file pandoc reads", wall, "s")
        results.peer("pandoc, one process per file", peer_wall, "s")
        results.ratio("doc2md / pandoc, one process per file", wall / peer_wall, goal="<= 1")
        results.ratio("doc2md / pandoc CPU, one process per file", cpu / peer_cpu, goal="<= 1")
    results.write()


if __name__ == "__main__":
    main()
