"""Which files are read, where each is written, and the checks made before anything is:
OUTDIR never equal to, inside or containing an input folder; no output on an input; no
overwrite without --force; `scope: filename` renames that are legal on Windows and unique.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from agentcli.errors import InputError, UsageError
from agentcli.files import check_regular
from agentcli.outputs import refuse_inputs
from officecli.office_replace.errors import NewNameError, OutDirError
from officecli.office_replace.found import Found
from officecli.office_replace.growth import renamed
from officecli.office_replace.rules import Rule
from officecli.office_replace.textedit import Hit
from officecli.readers.registry import BY_EXTENSION, FORMATS

# office-replace edits the parts of OOXML packages: the registry's zip-based formats
EDITABLE = tuple(fmt.name for fmt in FORMATS if fmt.zip_based)
WINDOWS_BAD = re.compile(r'[<>:"/\\|?*\x00-\x1f]')
WINDOWS_RESERVED = re.compile(r"(CON|PRN|AUX|NUL|COM[1-9]|LPT[1-9])(\..*)?", re.IGNORECASE)
MAX_LISTED = 10


@dataclass
class Item:
    """One input file: where it comes from, how the report names it, where it goes."""

    source: Path
    relative: PurePosixPath  # its place under OUTDIR (before any rename)
    selected: bool  # passes --include/--exclude
    output: PurePosixPath | None = None

    @property
    def label(self) -> str:
        return str(self.relative)

    @property
    def kind(self) -> str:
        fmt = BY_EXTENSION.get(self.source.suffix.lower())
        return fmt.name if self.selected and fmt and fmt.name in EDITABLE else ""


def _selected(rel: str, include: Sequence[str], exclude: Sequence[str]) -> bool:
    name = rel.rpartition("/")[2]

    def hit(globs: Sequence[str]) -> bool:
        return any(fnmatch.fnmatch(rel, g) or fnmatch.fnmatch(name, g) for g in globs)

    return (not include or hit(include)) and not hit(exclude)


def collect(
    inputs: Sequence[str], recursive: bool, include: Sequence[str], exclude: Sequence[str]
) -> list[Item]:
    """Every file of the inputs in command-line order, folders in sorted order.

    Office lock files (`~$name`) are left out; everything else is written to OUTDIR.
    """
    items: list[Item] = []
    for raw in inputs:
        if not raw:
            raise UsageError("an input path is empty", suggestion="name a file or a folder")
        path = Path(raw)
        if path.is_dir():
            if not recursive:
                raise UsageError(
                    f"{raw} is a folder", suggestion="add -r to replace in the files under it"
                )
            for p in sorted(path.rglob("*")):
                if p.is_file() and not p.name.startswith("~$"):
                    rel = PurePosixPath(p.relative_to(path).as_posix())
                    items.append(Item(p, rel, _selected(str(rel), include, exclude)))
        elif path.is_file():
            rel = PurePosixPath(path.name)
            items.append(Item(path, rel, _selected(path.name, include, exclude)))
        else:
            check_regular(path, raw)  # a pipe or a device: NotRegularFileError
            raise InputError(f"{raw}: no such file or folder", suggestion="check the path")
    unique: dict[Path, Item] = {}
    for item in items:
        unique.setdefault(item.source.resolve(), item)  # a file named twice is read once
    return list(unique.values())


def check_out_dir(out_dir: Path, inputs: Sequence[str]) -> None:
    """Refuse an OUTDIR that is, is inside, or contains an input folder (exit 2)."""
    out = out_dir.resolve()
    for raw in inputs:
        source = Path(raw).resolve()
        if not source.is_dir():
            continue
        if out == source or source in out.parents or out in source.parents:
            relation = (
                "is" if out == source else "is inside" if source in out.parents else "contains"
            )
            raise OutDirError(f"the output folder {out_dir} {relation} the input folder {raw}")


def filename_problem(name: str) -> str:
    """Why Windows would refuse this file name ('' when it is fine)."""
    stem = name.rpartition(".")[0] or name
    if WINDOWS_BAD.search(name):
        return 'has a character Windows forbids (<>:"/\\|?* or a control character)'
    if name != name.rstrip(" ."):
        return "ends with a space or a dot"
    if WINDOWS_RESERVED.fullmatch(name) or not stem.strip():
        return "is reserved or empty"
    return ""


def rename_files(items: Sequence[Item], rules: Sequence[Rule], found: dict[str, Found]) -> None:
    """Apply `scope: filename` rules to the stem of each selected file; set every output."""
    problems = []
    for item in items:
        name = item.relative.name
        if item.selected and rules:
            suffix = item.relative.suffix
            stem = item.relative.name[: len(name) - len(suffix)]
            growth = found[item.label].growth
            for rule, old, new in renamed(stem, rules, growth, "file name"):
                hit = Hit(rule, old + suffix, new + suffix, old + suffix, new + suffix, "")
                found[item.label].hit(hit, "file name", story="filename")
                stem = new
            name = stem + suffix
            problem = filename_problem(name) if name != item.relative.name else ""
            if problem:  # a name with / is not a name: it never becomes a path
                problems.append(f"{item.label} -> {name}: {problem}")
                continue
        item.output = item.relative.with_name(name)
    if problems:
        raise NewNameError(
            f"{len(problems)} new file name(s) are not valid: " + "; ".join(problems[:MAX_LISTED])
        )
    by_output: dict[str, list[str]] = {}
    for item in items:
        by_output.setdefault(str(item.output).lower(), []).append(item.label)
    clashes = [" and ".join(labels) for labels in by_output.values() if len(labels) > 1]
    if clashes:
        raise NewNameError(
            f"{len(clashes)} output name(s) would be used twice: " + "; ".join(clashes[:MAX_LISTED])
        )


def check_outputs(items: Sequence[Item], out_dir: Path, force: bool) -> None:
    """No output may be an input (by path, or device and inode); none may overwrite a file
    unless --force."""
    targets = [out_dir / item.output for item in items if item.output is not None]
    refuse_inputs(targets, [item.source for item in items])
    existing = [str(target) for target in targets if target.exists() and not force]
    if existing:
        raise OutDirError(
            f"{len(existing)} output file(s) already exist: " + ", ".join(existing[:MAX_LISTED]),
            suggestion="choose an empty output folder, or add --force to overwrite",
        )
