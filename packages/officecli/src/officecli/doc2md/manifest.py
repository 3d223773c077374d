"""The output folder's record of what doc2md wrote there (`OUT/.doc2md-manifest.json`): for
each Markdown file, the source it was written from, its pictures, and the title and summary
`llms.txt` shows. A run replaces only its own sources' earlier outputs; another document's
output is never replaced, whatever the options."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from agentcli.errors import InputError
from agentcli.files import read_regular
from agentcli.logs import Logger
from agentcli.outputs import write_text_atomic
from officecli.doc2md.errors import OutputConflictError
from officecli.doc2md.naming import Plan

MANIFEST = ".doc2md-manifest.json"
MAX_MANIFEST_BYTES = 64 << 20  # a few lines per output file: millions of them
SCHEMA_VERSION = 2  # 1 recorded the source only
log = Logger("doc2md")


class Entry:
    """One Markdown file of the folder: where it came from and what it holds."""

    __slots__ = ("assets", "source", "summary", "title")

    def __init__(
        self, source: str, assets: list[str] | None = None, title: str = "", summary: str = ""
    ) -> None:
        self.source = source  # the source's resolved path
        self.assets: list[str] = [] if assets is None else assets  # pictures it wrote
        self.title = title
        self.summary = summary

    def as_dict(self) -> dict[str, object]:
        return {"source": self.source, "assets": self.assets, "title": self.title,
                "summary": self.summary}  # fmt: skip


def source_id(source: Path) -> str:
    return str(source.resolve())


def load(out_dir: Path) -> dict[str, Entry]:
    """Markdown path under the folder -> its entry ({} without a manifest)."""
    path = out_dir / MANIFEST
    try:  # a pipe or a device in its place is unreadable, never read
        data = json.loads(read_regular(path, MAX_MANIFEST_BYTES).decode("utf-8"))
        outputs = data["outputs"]
        return {
            str(name): Entry(
                str(entry["source"]),
                [str(a) for a in entry.get("assets", [])],
                str(entry.get("title", "")),
                str(entry.get("summary", "")),
            )
            for name, entry in outputs.items()
        }
    except FileNotFoundError:
        return {}
    except (OSError, InputError, ValueError, KeyError, TypeError, AttributeError):
        log.warning("%s is unreadable; outputs it recorded are not protected", path)
        return {}


def refuse_conflicts(plans: Iterable[Plan], recorded: dict[str, Entry], force: bool) -> None:
    """Raise before any work when a planned output exists and is not this source's own:
    another existing document's output always; one no document accounts for (not recorded,
    or its source gone) unless `force`."""
    for plan in plans:
        if not (plan.markdown.exists() or plan.assets.exists()):
            continue
        entry = recorded.get(plan.key)
        if entry is not None and entry.source == source_id(plan.source):
            continue
        if entry is not None and Path(entry.source).exists():
            raise OutputConflictError(
                f"{plan.markdown} was written from {entry.source}, not from {plan.source}",
                suggestion="keep both: convert into another -d folder, or pass --keep-ext to "
                "name outputs after the whole file name; --force never replaces another "
                "document's output",
                data={"output": str(plan.markdown), "source": entry.source},
            )
        if not force:
            owner = (
                f"was written from {entry.source}, which no longer exists"
                if entry
                else ("exists, and doc2md did not write it there")
            )
            raise OutputConflictError(
                f"{plan.markdown} {owner}",
                suggestion=f"pass --force to replace it with the output of {plan.source}, "
                "or choose another -d folder",
                data={"output": str(plan.markdown), "source": entry.source if entry else ""},
            )


def save(out_dir: Path, entries: dict[str, Entry]) -> None:
    outputs = {name: entry.as_dict() for name, entry in sorted(entries.items())}
    text = json.dumps(
        {"schema_version": SCHEMA_VERSION, "outputs": outputs}, ensure_ascii=False, indent=2
    )
    write_text_atomic(out_dir / MANIFEST, text + "\n")
