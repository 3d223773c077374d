"""Writing output files without ever losing an input: the checks every tool runs before it
writes, and the atomic write itself (a temporary name beside the target, then a rename)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from agentcli.errors import OutputIsInputError, UsageError

__all__ = ["OutputIsInputError"]  # declared with the other errors (cheap to import there)


def file_identity(path: Path) -> object:
    """(device, inode) of an existing file (hard and symbolic links share it), else the
    resolved path: two paths with equal identities name one file."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return path.resolve()
    return (st.st_dev, st.st_ino)


def same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file: same device and inode, or the same resolved path."""
    return file_identity(a) == file_identity(b)


def refuse_inputs(outputs: Iterable[Path], inputs: Iterable[Path], what: str = "output") -> None:
    """Raise OutputIsInputError when any output is (or links to) one of the inputs."""
    kept = [Path(p) for p in inputs]
    for out in outputs:
        for source in kept:
            if same_file(Path(out), source):
                raise OutputIsInputError(f"{what} {out} is the input {source}")


def check_output_file(raw: str | Path, inputs: Iterable[Path] = (), label: str = "-o") -> Path:
    """A path a report or document can be written to: checked before any work is done."""
    text = str(raw)
    path = Path(text)
    if text in ("", ".", "..") or text.endswith("/") or path.is_dir():
        raise UsageError(f"{label} {text}: is a folder, not a file", suggestion="name a file")
    if not path.parent.is_dir():
        raise UsageError(
            f"{label} {text}: the folder does not exist",
            suggestion="create it or choose another path",
        )
    refuse_inputs([path], inputs, label)
    return path


def check_output_dir(raw: str | Path) -> Path:
    """A folder outputs can go into: it exists as a folder, or can be created."""
    path = Path(raw)
    for step in (path, *path.parents):
        try:
            exists = step.exists()
        except OSError as exc:  # a name too long for the file system, say
            raise UsageError(
                f"{raw}: {exc.strerror}", suggestion="choose another output folder"
            ) from None
        if exists:
            if not step.is_dir():
                raise UsageError(
                    f"{raw}: {step} is a file, not a folder",
                    suggestion="choose another output folder",
                )
            break
    return path


def write_atomic(path: Path, data: bytes) -> None:
    """Write beside the target under a temporary name, then rename: readers never see half a
    file, and a failure leaves the old file (if any) as it was. A target that is not a
    regular file (`-o /dev/null`, a pipe) is written to in place: a rename would replace the
    device node itself."""
    try:
        special = not stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        special = False
    if special:
        with open(path, "wb") as fh:
            fh.write(data)
        return
    fd, tmp = _temporary(path)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _temporary(path: Path) -> tuple[int, str]:
    """A new file beside `path` (mode 0600) under a name nothing else has: created with
    O_EXCL, so neither an existing file nor a planted link is ever opened. (tempfile does
    the same, but costs its imports, a tenth of a short run.)"""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        tmp = str(path.parent / f".{path.name[:200]}.{os.urandom(6).hex()}.tmp")
        try:
            return os.open(tmp, flags, 0o600), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {path}")


def write_text_atomic(path: Path, text: str) -> None:
    """UTF-8 without BOM, LF line endings, written atomically."""
    write_atomic(path, text.encode("utf-8"))


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
