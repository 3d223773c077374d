"""`<out-dir>/llms.txt`: an index of a converted folder, as the llms.txt convention lays it out
(an H1 title, a one-line summary as a quote, then a list of links with a note each). It lists
every Markdown file the folder's manifest records and that is still there, whichever run
wrote it, so a later run into the same folder updates it instead of leaving it stale."""

from __future__ import annotations

from pathlib import Path

from agentcli.outputs import write_text_atomic
from agentcli.report import Finding
from officecli.doc2md.manifest import Entry
from officecli.doc2md.version import __version__
from officecli.readers.ooxml import escape_inline

NAME = "llms.txt"


def indexed(out_dir: Path, entries: dict[str, Entry]) -> list[tuple[str, Entry]]:
    """The recorded Markdown files that exist, by path."""
    return [(key, entry) for key, entry in sorted(entries.items()) if (out_dir / key).is_file()]


def llms_txt(out_dir: Path, entries: list[tuple[str, Entry]]) -> str:
    """The index text: every converted file with its title, summary, source and link."""
    title = out_dir.resolve().name or "documents"
    lines = [
        f"# {title}",
        "",
        f"> Markdown conversions of {len(entries)} document(s), written by doc2md {__version__}.",
        "",
        "## Documents",
        "",
    ]
    for key, entry in entries:
        source = Path(entry.source).name
        # titles and summaries are Markdown inline text already (escaped by the readers)
        name = entry.title or escape_inline(source)
        note = f"{entry.summary} " if entry.summary else ""
        lines.append(f"- [{name}](<{key}>): {note}(source: {source})")
    return "\n".join(lines) + "\n"


def write_llms_txt(out_dir: Path, entries: dict[str, Entry], dry_run: bool) -> Finding:
    """Write the index atomically beside its target, or with --dry-run say that it would be."""
    target = out_dir / NAME
    if dry_run:
        message = f"would write {target} indexing {len(entries)} file(s); nothing written"
    else:
        listed = indexed(out_dir, entries)
        out_dir.mkdir(parents=True, exist_ok=True)
        write_text_atomic(target, llms_txt(out_dir, listed))
        message = f"{target} indexes {len(listed)} converted file(s)"
    return Finding(
        "convert.index",
        "info",
        message,
        location=str(out_dir),
        field=str(target),
        suggestion="--no-llms-txt leaves it out",
    )
