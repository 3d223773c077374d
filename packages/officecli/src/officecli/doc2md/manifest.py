"""The output folder's record of which source each Markdown file was written from
(`OUT/.doc2md-manifest.json`), so a run never silently replaces another source's output."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from pathlib import Path

from agentcli.errors import InputError
from agentcli.files import read_regular
from agentcli.outputs import write_text_atomic
from officecli.doc2md.convert import Plan
from officecli.doc2md.errors import OutputConflictError

MANIFEST = ".doc2md-manifest.json"
MAX_MANIFEST_BYTES = 64 << 20  # a line per output file: millions of them
log = logging.getLogger("doc2md")


def source_id(source: Path) -> str:
    return str(source.resolve())


def load(out_dir: Path) -> dict[str, str]:
    """Markdown file name -> the source it was written from ({} without a manifest)."""
    path = out_dir / MANIFEST
    try:  # a pipe or a device in its place is unreadable, never read
        data = json.loads(read_regular(path, MAX_MANIFEST_BYTES).decode("utf-8"))
        outputs = data["outputs"]
        return {str(name): str(entry["source"]) for name, entry in outputs.items()}
    except FileNotFoundError:
        return {}
    except (OSError, InputError, ValueError, KeyError, TypeError, AttributeError):
        log.warning("%s is unreadable; outputs it recorded are not protected", path)
        return {}


def refuse_conflicts(plans: Iterable[Plan], recorded: dict[str, str]) -> None:
    """Raise when a planned Markdown file exists and was written from another source."""
    for plan in plans:
        previous = recorded.get(plan.markdown.name)
        if previous and previous != source_id(plan.source) and plan.markdown.exists():
            raise OutputConflictError(
                f"{plan.markdown} was written from {previous}, not from {plan.source}",
                data={"output": str(plan.markdown), "source": previous},
            )


def save(out_dir: Path, recorded: dict[str, str], written: Iterable[Plan]) -> None:
    entries = dict(recorded)
    entries.update({p.markdown.name: source_id(p.source) for p in written})
    outputs = {name: {"source": source} for name, source in sorted(entries.items())}
    text = json.dumps({"schema_version": 1, "outputs": outputs}, ensure_ascii=False, indent=2)
    write_text_atomic(out_dir / MANIFEST, text + "\n")
