"""Which files to convert and where each one goes: deterministic names, inputs never overwritten."""

from __future__ import annotations

from pathlib import Path

from agentcli.errors import InputError, UsageError
from agentcli.files import check_regular
from agentcli.outputs import OutputIsInputError, file_identity
from officecli.doc2md.convert import Plan
from officecli.readers.registry import DOCUMENT_EXTENSIONS


def collect(inputs: list[str], recursive: bool) -> list[Path]:
    """Input files in command-line order; directories (with -r) expanded in sorted order."""
    files: list[Path] = []
    for raw in inputs:
        if not raw:
            raise UsageError("an input path is empty", suggestion="name a file or a directory")
        path = Path(raw)
        if not path.exists():
            raise InputError(f"{raw}: no such file or directory", suggestion="check the path")
        if path.is_dir():
            if not recursive:
                raise UsageError(
                    f"{raw} is a directory", suggestion="add -r to convert the files under it"
                )
            files += sorted(
                p
                for p in path.rglob("*")
                if p.is_file()
                and p.suffix.lower() in DOCUMENT_EXTENSIONS
                and not p.name.startswith((".", "~$"))
            )
        else:
            check_regular(path, raw)  # a pipe or a device: NotRegularFileError, before any work
            files.append(path)
    unique: dict[Path, Path] = {}
    for f in files:
        unique.setdefault(f.resolve(), f)
    return list(unique.values())


def plan_outputs(files: list[Path], out_dir: Path) -> list[Plan]:
    """OUT_DIR/<stem>.md; on a clash <stem>.<ext>.md, then <stem>.<ext>-2.md, ... in input order.

    Names are compared case-insensitively (some file systems are). An output that would be
    an input (by path, or by device and inode: a link) is refused before anything is written.
    """
    inputs = {file_identity(f) for f in files}
    taken: set[str] = set()
    plans = []
    for f in files:
        ext = f.suffix.lstrip(".").lower()
        candidates = [f.stem, f"{f.stem}.{ext}"] + [f"{f.stem}.{ext}-{n}" for n in range(2, 10_000)]
        for stem in candidates:
            md = out_dir / f"{stem}.md"
            assets = out_dir / f"{stem}_assets"
            if stem.lower() in taken:
                continue
            if {file_identity(md), file_identity(assets)} & inputs:
                raise OutputIsInputError(f"-d {out_dir}: {md} would be the input {f} itself")
            taken.add(stem.lower())
            plans.append(Plan(f, md, assets))
            break
    return plans
