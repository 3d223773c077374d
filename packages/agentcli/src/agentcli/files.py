"""Reading input files safely: a regular file, read within a bound, or a typed error.

Every tool opens its inputs through here (or checks them here before a library opens
them), so a FIFO, `/dev/stdin` or `/dev/zero` named as an input is refused before the
first read, instead of blocking forever or filling memory. Files are opened non-blocking
(opening a FIFO would wait for a writer) after a first check of the path (a device is
never opened), then checked again on the open descriptor, so the path cannot be swapped
for a pipe between the check and the read.
"""

import os
import stat

from agentcli.errors import FileTooLargeError, NotRegularFileError

TYPE_CHECKING = False  # `typing` and `pathlib` stay off the start-up path (Procler reads here)
if TYPE_CHECKING:
    from pathlib import Path
    from typing import BinaryIO

__all__ = [
    "FileTooLargeError",
    "NotRegularFileError",
    "check_regular",
    "kind_of",
    "open_regular",
    "read_regular",
    "read_regular_text",
]

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)
_CHUNK = 1 << 20


def kind_of(mode: "int") -> "str":
    """What a file of this mode is, in words ('a regular file', 'a pipe (FIFO)', ...)."""
    if stat.S_ISREG(mode):
        return "a regular file"
    return next((words for test, words in _KINDS if test(mode)), "not a regular file")


def _refuse(mode: "int", label: "str") -> "None":
    if not stat.S_ISREG(mode):
        raise NotRegularFileError(f"{label}: is {kind_of(mode)}, not a regular file")


def check_regular(path: "str | Path", label: "str | None" = None) -> "None":
    """Refuse an existing path that is not a regular file (after symlinks), for inputs a
    library opens itself; a missing path is left to the caller's own message."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return
    _refuse(mode, str(path) if label is None else label)


def open_regular(path: "str | Path", label: "str | None" = None) -> "BinaryIO":
    """The file opened for binary reading, once its descriptor shows a regular file.
    OSError (missing, no permission) is the caller's to word."""
    name = str(path) if label is None else label
    _refuse(os.stat(path).st_mode, name)  # devices are not even opened (a socket cannot be)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0))
    try:
        _refuse(os.fstat(fd).st_mode, name)  # what was opened, if the path changed meanwhile
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: "str | Path", limit: "int", label: "str | None" = None) -> "bytes":
    """The bytes of a regular file of at most `limit` bytes; past it FileTooLargeError,
    after reading no more than limit + 1 bytes (the size on disk may change meanwhile)."""
    name = str(path) if label is None else label
    with open_regular(path, name) as fh:
        chunks, size = [], 0
        while size <= limit and (chunk := fh.read(min(_CHUNK, limit + 1 - size))):
            chunks.append(chunk)
            size += len(chunk)
    if size > limit:
        raise FileTooLargeError(f"{name}: larger than {limit} bytes")
    return b"".join(chunks)


def read_regular_text(
    path: "str | Path", limit: "int", label: "str | None" = None, encoding: "str" = "utf-8"
) -> "str":
    """read_regular decoded; UnicodeDecodeError is the caller's to word."""
    return read_regular(path, limit, label).decode(encoding)
