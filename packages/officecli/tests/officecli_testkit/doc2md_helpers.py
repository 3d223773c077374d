"""What the doc2md tests share: the corpus location and doc2md's console entry."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[4]
CORPUS = REPO / ".." / "shared" / "corpus"
ENTRY = "from officecli.doc2md.cli import main; main()"

Run = Callable[..., tuple[int, dict[str, Any]]]  # run_doc2md(*args) -> (exit code, envelope)
Rules = Callable[..., list[str]]  # rules(report, severity=None) -> its findings' rule ids
