"""doc2md against markitdown on ../shared/corpus/markitdown/: total wall time and fidelity.

markitdown is not a project dependency: it is installed into bench/.venv-markitdown
(`uv venv` + `uv pip install 'markitdown[docx,pptx,xlsx,pdf]'`) on first use.
Each tool converts every file in one process; medians of RUNS interleaved runs.
"""

from __future__ import annotations

import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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


def fidelity(markdown: str) -> tuple[int, int, int, int]:
    """tables, table rows, headings, content characters (whitespace and table rules left out)."""
    lines = markdown.splitlines()
    rows = [x for x in lines if x.startswith("|") and not re.match(r"^\|[\s:|-]+\|$", x)]
    tables = sum(
        1
        for i, x in enumerate(lines)
        if x.startswith("|") and (i == 0 or not lines[i - 1].startswith("|"))
    )
    heads = sum(1 for x in lines if re.match(r"^#{1,6} ", x))
    text = re.sub(r"<!--.*?-->", "", markdown, flags=re.S)
    chars = sum(1 for ch in text if not ch.isspace() and ch not in "|#*-")
    return tables, len(rows), heads, chars


def main() -> None:
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
        print("| file | tables (d2m/mid) | table rows | headings | characters |")
        print("|---|---|---|---|---|")
        for name in files:
            p = Path(name)
            ours_md = ours_dir / f"{p.stem}.md"
            candidates = sorted(ours_dir.glob(f"{p.stem}*.md"))
            ours_md = next(
                (c for c in candidates if c.name == f"{p.stem}.{p.suffix[1:]}.md"), ours_md
            )
            a = fidelity(ours_md.read_text("utf-8")) if ours_md.exists() else (0, 0, 0, 0)
            peer_md = peer_dir / f"{p.name}.md"
            b = fidelity(peer_md.read_text("utf-8")) if peer_md.exists() else (0, 0, 0, 0)
            cells = " | ".join(f"{x}/{y}" for x, y in zip(a, b, strict=True))
            print(f"| {p.name} | {cells} |")


if __name__ == "__main__":
    main()
