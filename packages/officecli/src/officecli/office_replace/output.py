"""Writing outputs: each file goes to a temporary name beside its target and is renamed
into place only when complete, so a failure never leaves a partial file."""

from __future__ import annotations

import os
import shutil
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path


def atomic_write(target: Path, write: Callable[[Path], None], like: Path) -> None:
    """Write through `write(temp)`, give it the permissions of `like`, rename it into place."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    os.close(fd)
    temp = Path(name)
    try:
        write(temp)
        shutil.copymode(like, temp)
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def copy_file(source: Path, target: Path) -> None:
    def write(temp: Path) -> None:
        shutil.copyfile(source, temp)

    atomic_write(target, write, source)


def write_package(source: Path, changed: dict[str, bytes], target: Path) -> None:
    """The source package with the changed parts replaced; other members copied as they are."""

    def write(temp: Path) -> None:
        with zipfile.ZipFile(source) as src, zipfile.ZipFile(temp, "w") as out:
            for info in src.infolist():
                data = changed[info.filename] if info.filename in changed else src.read(info)
                out.writestr(info, data, compress_type=info.compress_type)

    atomic_write(target, write, source)
