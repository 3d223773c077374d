"""Writing outputs through agentcli.outputs.write_atomic (a temporary name beside the target,
then a rename), so a failure never leaves a partial file."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from agentcli.outputs import write_atomic


def copy_file(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(target, source.read_bytes())


def write_package(source: Path, changed: dict[str, bytes], target: Path) -> None:
    """The source package with the changed parts replaced; other members copied as they are."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(buffer, "w") as out:
        for info in src.infolist():
            data = changed[info.filename] if info.filename in changed else src.read(info)
            out.writestr(info, data, compress_type=info.compress_type)
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(target, buffer.getvalue())
