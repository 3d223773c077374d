"""Writing one conversion where its plan says: pictures first, the Markdown last, each under a
temporary name beside its target and renamed; then the pictures an earlier conversion of the
same output left and this one did not write are removed (only those the manifest recorded)."""

from __future__ import annotations

from pathlib import Path

from agentcli.outputs import write_atomic
from officecli.doc2md.conversion import Conversion
from officecli.doc2md.manifest import Entry, source_id
from officecli.doc2md.naming import Plan


def write_conversion(
    plan: Plan, conversion: Conversion, previous: Entry | None, with_front_matter: bool
) -> tuple[list[Path], Entry]:
    """(the files written, the manifest entry for them). `previous` is the entry this
    output replaces (the refusal checks let only a replaceable one through)."""
    plan.markdown.parent.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    if conversion.images:
        plan.assets.mkdir(exist_ok=True)
        for image in conversion.images:
            write_atomic(plan.assets / image.name, image.data)
            written.append(plan.assets / image.name)
    write_atomic(plan.markdown, conversion.text(with_front_matter).encode("utf-8"))
    written.append(plan.markdown)
    names = [image.name for image in conversion.images]
    if previous is not None:
        remove_stale(plan.assets, set(previous.assets) - set(names))
    meta = conversion.meta
    return written, Entry(source_id(plan.source), names, meta.title, meta.summary)


def remove_stale(folder: Path, names: set[str]) -> None:
    """Remove the named pictures of an earlier conversion, and their folder once empty."""
    for name in names:
        if "/" not in name and name not in (".", ".."):  # a manifest names files in the folder
            (folder / name).unlink(missing_ok=True)
    if names and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
