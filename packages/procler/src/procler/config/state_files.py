"""The JSON files Procler keeps in .procler/state (runtime definitions, `procler scale`
counts, the `serve` settings): one reader, so a missing, unreadable or malformed file is
told apart the same way for each, and one writer that replaces a file at once."""

from __future__ import annotations

import errno
import json
import os
from typing import Any


class StateFileCorrupt(ValueError):
    """A state file cannot be read or does not hold what it should; the message says why,
    and `line`/`column` where (the file's start when the problem is not at one place)."""

    def __init__(self, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(message)
        self.line, self.column = line, column


def read_state_json(path: str) -> dict[str, Any] | None:
    """The file's JSON object; None when there is no file."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except FileNotFoundError:
        return None
    except json.JSONDecodeError as exc:
        raise StateFileCorrupt(f"cannot read {path}: {exc}", exc.lineno, exc.colno) from None
    except (OSError, ValueError) as exc:
        raise StateFileCorrupt(f"cannot read {path}: {exc}") from None
    if not isinstance(data, dict):
        raise StateFileCorrupt(f"{path} does not hold a JSON object")
    return data


def write_state_json(path: str, body: dict[str, Any]) -> None:
    """Replace the file at once (a 0600 temp file beside it, synced, then renamed): a reader
    never sees half of it, and a crash leaves the old file or the new one. A write the disk
    refuses (full, over quota, read-only) is StateDirUnwritable (exit 2), the old file kept."""
    from procler.errors import StateDirUnwritable

    try:
        _replace(path, body)
    except OSError as exc:
        full = exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)
        raise StateDirUnwritable(
            f"cannot write {path}: {exc.strerror}; nothing was changed",
            suggestion="free some space on the disk holding it, then retry"
            if full
            else f"make {os.path.dirname(path)} writable by this user, then retry",
        ) from None


def _replace(path: str, body: dict[str, Any]) -> None:
    import tempfile  # only a write needs it (shutil, random...): reading state is the hot path

    prefix = "." + os.path.basename(path).removesuffix(".json") + "-"
    fd, temp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=prefix)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(body, handle, indent=2, ensure_ascii=False)
            handle.write("\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        os.unlink(temp)
        raise
