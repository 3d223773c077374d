"""`<out-dir>/llms.txt`: an index of a converted folder, as the llms.txt convention lays it out
(an H1 title, a one-line summary as a quote, then a list of links with a note each)."""

from __future__ import annotations

import os
from pathlib import Path

from agentcli.outputs import write_text_atomic
from agentcli.report import Finding
from officecli.doc2md import __version__
from officecli.doc2md.convert import Result
from officecli.readers.ooxml import escape_inline

NAME = "llms.txt"


def llms_txt(out_dir: Path, results: list[Result]) -> str:
    """The index text: every converted file with its title, summary, source and link."""
    title = out_dir.resolve().name or "documents"
    lines = [
        f"# {title}",
        "",
        f"> Markdown conversions of {len(results)} document(s), written by doc2md {__version__}.",
        "",
        "## Documents",
        "",
    ]
    for result in results:
        link = Path(os.path.relpath(result.plan.markdown, out_dir)).as_posix()
        # titles and summaries are Markdown inline text already (escaped by the readers)
        name = result.title or escape_inline(result.plan.source.name)
        note = f"{result.summary} " if result.summary else ""
        lines.append(f"- [{name}](<{link}>): {note}(source: {result.plan.source.name})")
    return "\n".join(lines) + "\n"


def write_llms_txt(out_dir: Path, results: list[Result], dry_run: bool) -> Finding:
    """Write the index atomically beside its target, or with --dry-run say that it would be."""
    target = out_dir / NAME
    if dry_run:
        message = f"would write {target} indexing {len(results)} file(s); nothing written"
    else:
        out_dir.mkdir(parents=True, exist_ok=True)
        write_text_atomic(target, llms_txt(out_dir, results))
        message = f"{target} indexes {len(results)} converted file(s)"
    return Finding(
        "convert.index",
        "info",
        message,
        location=str(out_dir),
        field=str(target),
        suggestion="--no-llms-txt leaves it out",
    )
