"""doc2md as a Python library: `convert` one file, `convert_files` for many.

    from officecli.doc2md import Options, convert

    result = convert("report.docx")                 # reads; writes nothing
    result.markdown                                 # the Markdown text
    result.images                                   # [Image(name, data)], linked from it
    convert("scan.pdf", Options(ocr="always"), out_dir="out")   # writes out/scan.md too

Bad input raises the errors the command line reports, each an `agentcli.errors.AgentError`
with the same `code`, `exit_code` and `suggestion`: BROKEN_FILE, ENCRYPTED_FILE,
UNSUPPORTED_FORMAT, UNSAFE_FILE (a file that cannot be read), INVALID_INPUT (no such file),
USAGE (bad options, a folder), OUTPUT_CONFLICT and OUTPUT_IS_INPUT (when writing).
"""

from __future__ import annotations

import os
from pathlib import Path

from agentcli.errors import InputError
from agentcli.files import check_regular
from officecli.doc2md.conversion import Conversion, convert_file
from officecli.doc2md.naming import Source
from officecli.doc2md.options import check_options
from officecli.readers.model import ReadOptions

Options = ReadOptions
PathLike = str | os.PathLike[str]


def source_file(source: PathLike) -> Path:
    """The path of an existing file, or the error the command line gives for it."""
    path = Path(source)
    if not str(source):
        raise InputError("an input path is empty", suggestion="name a file")
    if not path.exists():
        raise InputError(f"{source}: no such file or directory", suggestion="check the path")
    if path.is_dir():
        raise InputError(
            f"{source} is a directory", suggestion="convert_files(..., recursive=True) reads one"
        )
    check_regular(path, str(source))  # a pipe or a device: NotRegularFileError
    return path


def convert(
    source: PathLike,
    options: Options | None = None,
    *,
    out_dir: PathLike | None = None,
    keep_ext: bool = False,
    force: bool = False,
    front_matter: bool = False,
) -> Conversion:
    """Convert one file to Markdown in memory. With `out_dir`, also write it there as the
    command line does (`<stem>.md`, pictures in `<stem>_assets/`, the folder's manifest,
    and its llms.txt if it has one); `force` and `keep_ext` mean what they mean there."""
    path = source_file(source)
    options = options or ReadOptions()
    check_options(options)
    if out_dir is None:
        return convert_file(path, options, keep_ext)
    from officecli.doc2md.batch import Batch
    from officecli.doc2md.llms_txt import NAME as LLMS_TXT

    batch = Batch(Path(out_dir), keep_ext=keep_ext, force=force, front_matter=front_matter)
    [plan] = batch.plan([Source(path)])
    conversion = convert_file(path, options, keep_ext)
    try:
        conversion.written = batch.write(plan, conversion)
    finally:
        batch.save()
    if (batch.out_dir / LLMS_TXT).exists():  # the folder's index stays true
        batch.index()
    return conversion
