"""Why a path given on the command line cannot be read as a file, in words for the error."""

from __future__ import annotations

from pathlib import Path

from agentcli.files import check_regular


def not_a_file(raw: str | Path) -> str | None:
    """'the path is empty', 'no such file', 'is a directory, not a file', or None when fine.
    A pipe, a device or a socket raises NotRegularFileError (exit 2): reading one could
    block forever or never end, whatever the tool.

    Takes the raw argument: Path("") would silently mean the current directory.
    """
    if str(raw) == "":
        return "the path is empty"
    path = Path(raw)
    try:
        if path.is_dir():
            return "is a directory, not a file"
        check_regular(path, str(raw))
        if not path.is_file():
            return "no such file"
    except (OSError, ValueError) as exc:  # a name too long for the OS, a NUL byte
        return f"cannot be used as a path ({getattr(exc, 'strerror', None) or exc})"
    return None
