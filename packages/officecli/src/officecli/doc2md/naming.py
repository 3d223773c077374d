"""Which files to convert, and where each one's output goes.

A file's output name is a function of its own path alone, whatever else is converted with
it: `<stem>.md` and `<stem>_assets/` (with --keep-ext `<name>.md` and `<name>_assets/`, e.g.
`report.docx.md`), in the output folder, or, for a file found under a folder given with -r,
in the same sub-folder of the output folder as the file is of that folder. Two inputs that
would get the same name are refused before anything is read or written.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from agentcli.errors import InputError, UsageError
from agentcli.files import check_regular
from agentcli.outputs import OutputIsInputError, file_identity
from officecli.doc2md.errors import OutputConflictError
from officecli.readers.registry import DOCUMENT_EXTENSIONS

ROOT = PurePosixPath()


class Source:
    """A file to convert, and the sub-folder of the output folder its output goes to."""

    __slots__ = ("folder", "path")

    def __init__(self, path: Path, folder: PurePosixPath = ROOT) -> None:
        self.path = path
        self.folder = folder


class Plan:
    """Where one source's output goes: its Markdown file and its pictures' folder."""

    __slots__ = ("assets", "key", "markdown", "source")

    def __init__(self, source: Path, key: str, markdown: Path, assets: Path) -> None:
        self.source = source
        self.key = key  # the Markdown file's path under the output folder ("sub/report.md")
        self.markdown = markdown
        self.assets = assets


def output_stem(path: Path, keep_ext: bool) -> str:
    """`report` for report.docx; `report.docx` with --keep-ext."""
    return path.name if keep_ext else path.stem


def assets_dir(path: Path, keep_ext: bool) -> str:
    """The pictures' folder beside the Markdown file, as the Markdown links to it."""
    return f"{output_stem(path, keep_ext)}_assets"


def collect(inputs: list[str], recursive: bool) -> list[Source]:
    """Input files in command-line order; folders (with -r) expanded in sorted order."""
    files: list[Source] = []
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
            files += [
                Source(p, PurePosixPath(p.parent.relative_to(path).as_posix()))
                for p in sorted(path.rglob("*"))
                if p.is_file()
                and p.suffix.lower() in DOCUMENT_EXTENSIONS
                and not p.name.startswith((".", "~$"))
            ]
        else:
            check_regular(path, raw)  # a pipe or a device: NotRegularFileError, before any work
            files.append(Source(path))
    unique: dict[Path, Source] = {}
    for source in files:
        unique.setdefault(source.path.resolve(), source)
    return list(unique.values())


def plan_outputs(sources: list[Source], out_dir: Path, keep_ext: bool) -> list[Plan]:
    """Each source's output paths. Names are compared case-insensitively (some file systems
    are); two sources with one name, or an output that would be an input (by path, or by
    device and inode: a link), are refused before anything is written."""
    inputs = {file_identity(s.path): s.path for s in sources}
    taken: dict[str, Path] = {}
    plans = []
    for source in sources:
        stem = output_stem(source.path, keep_ext)
        key = (source.folder / f"{stem}.md").as_posix()
        other = taken.setdefault(key.lower(), source.path)
        if other != source.path:
            raise _shared_name(other, source.path, key, keep_ext)
        markdown = out_dir / key
        assets = markdown.parent / f"{stem}_assets"
        for output in (markdown, assets):
            if file_identity(output) in inputs:
                raise OutputIsInputError(f"-d {out_dir}: {output} would be the input itself")
        plans.append(Plan(source.path, key, markdown, assets))
    return plans


def _shared_name(first: Path, second: Path, key: str, keep_ext: bool) -> OutputConflictError:
    if not keep_ext and first.suffix.lower() != second.suffix.lower():
        suggestion = (
            f"pass --keep-ext to name each output after its whole file name "
            f"({first.name}.md, {second.name}.md)"
        )
    else:
        suggestion = "convert them into different -d folders, or with -r from their common folder (outputs keep the tree)"
    return OutputConflictError(
        f"{first} and {second} would both be written to {key}",
        suggestion=suggestion,
        data={"output": key, "sources": [str(first), str(second)]},
    )
