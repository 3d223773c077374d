"""No tracked file keeps the markers of a merge conflict: a resolution left half-done
passes lint when the markers sit inside a docstring or a Markdown page."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MARKER = re.compile(rb"^(<{7,} \S|>{7,} \S|={7,}$)", re.MULTILINE)


def test_no_tracked_file_holds_a_conflict_marker() -> None:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    marked = []
    for name in filter(None, listed):
        path = ROOT / name.decode()
        if path.is_file() and MARKER.search(path.read_bytes()):
            marked.append(name.decode())
    assert marked == []
