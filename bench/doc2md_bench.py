"""doc2md against markitdown on ../shared/corpus/markitdown/: total wall time, and per
file the fidelity of each tool's Markdown as a renderer reads it (bench/_fidelity.py).

markitdown is not a project dependency: it is installed into bench/.venv-markitdown
(`uv venv` + `uv pip install 'markitdown[docx,pptx,xlsx,pdf]'`) on first use.
Each tool converts every file in one process; medians of RUNS interleaved runs.
"""

from __future__ import annotations

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


def _read(path: Path) -> str:
    return path.read_text("utf-8") if path.exists() else ""


def _ours_markdown(out: Path, source: Path) -> Path:
    """doc2md names <stem>.md, or <stem>.<ext>.md when two inputs share a stem."""
    both = out / f"{source.stem}.{source.suffix[1:]}.md"
    return both if both.exists() else out / f"{source.stem}.md"


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
        f"median of {RUNS}; mean text recall"
    )
    ensure_peer()
    files = sorted(str(p) for p in CORPUS.iterdir() if p.suffix in EXTS)
    with tempfile.TemporaryDirectory() as tmp:
        ours_dir, peer_dir = Path(tmp, "ours"), Path(tmp, "peer")
        peer_dir.mkdir()
        ours = [sys.executable, "-c", "from officecli.doc2md.cli import main; main()"]
        ours += [*files, "-d", str(ours_dir), "--continue-on-error"]
        peer = [str(PEER), "-c", MARKITDOWN_SCRIPT, str(peer_dir), *files]
        timed(ours), timed(peer)  # warm-up: file cache, .pyc files
        t_ours, t_peer = [], []
        for _ in range(RUNS):
            t_ours.append(timed(ours))
            t_peer.append(timed(peer))
        m_ours, m_peer = statistics.median(t_ours), statistics.median(t_peer)
        print(f"{len(files)} files, {RUNS} runs, median wall time")
        print(f"doc2md     {m_ours:7.2f} s")
        print(f"markitdown {m_peer:7.2f} s")
        print(f"ratio markitdown / doc2md = {m_peer / m_ours:.2f} (goal >= 3)")
        print()
        recall = fidelity_table(files, ours_dir, peer_dir)
    results.ours(f"doc2md, {len(files)} files", m_ours, "s")
    results.peer(f"markitdown, {len(files)} files", m_peer, "s")
    results.ratio("markitdown / doc2md", m_peer / m_ours, "higher", goal=">= 3")
    results.ours("doc2md mean text recall", recall[0] * 100, "%", "higher")
    results.peer("markitdown mean text recall", recall[1] * 100, "%", "higher")
    results.write()


if __name__ == "__main__":
    main()
