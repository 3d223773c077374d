"""Reading only below one folder: a server's calls are confined to the root it was given.

An MCP server answers whoever writes its prompts, so a call must not read `/etc/shadow`
because a prompt named it. The server confines each call (`confined(root)`, a context
variable: a call's thread and the processes it forks see it, other calls do not), and
every place a tool opens a file it was handed, directly or through another file (a rules
file's datasets, a folder's files), calls `check(path)`: symlinks resolved, a path
outside the root is refused. Outside a confined call `check` does nothing.
"""

import os
from contextlib import contextmanager
from contextvars import ContextVar

from agentcli.errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

_ROOT: "ContextVar[str | None]" = ContextVar("agentcli_confined_root", default=None)


class OutsideRootError(UsageError):
    code = "PATH_OUTSIDE_ROOT"
    default_suggestion = "give a path inside the folder the server was started on (--root)"


@contextmanager
def confined(root: "str | os.PathLike[str]") -> "Iterator[str]":
    """Confine what runs in this block to `root` (its real path is yielded)."""
    real = os.path.realpath(root)
    token = _ROOT.set(real)
    try:
        yield real
    finally:
        _ROOT.reset(token)


def inside(path: "str | os.PathLike[str]", root: "str") -> "bool":
    real = os.path.realpath(path)
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def check(path: "str | os.PathLike[str]") -> "None":
    """Refuse a path outside the confining root (none: every path is allowed)."""
    root = _ROOT.get()
    if root is not None and not inside(path, root):
        raise OutsideRootError(
            f"{os.fspath(path)}: outside {root}, the only folder this server reads"
        )
