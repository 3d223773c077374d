"""Globs as watch paths use them: `*` and `?` within one path component, `**` across any
number of them, `[abc]` classes; a glob naming a folder also covers what is under it.
Compiled to RE2 (procler.patterns), so matching a path takes linear time."""

from __future__ import annotations

import re

from procler.patterns import Pattern, PatternError, compile_pattern

MAGIC = re.compile(r"[*?\[]")


class GlobError(ValueError):
    """The text is not a glob we can match; the message says why."""


def glob_regex(glob: str) -> str:
    """The anchored regex of a glob over '/'-separated paths."""
    out, i, n = [], 0, len(glob)
    while i < n:
        ch = glob[i]
        if glob.startswith("**", i):
            at_start = i == 0 or glob[i - 1] == "/"
            if at_start and glob.startswith("**/", i):
                out.append("(?:[^/]*/)*")  # any number of folders, none included
                i += 3
                continue
            out.append(".*")
            i += 2
        elif ch == "*":
            out.append("[^/]*")
            i += 1
        elif ch == "?":
            out.append("[^/]")
            i += 1
        elif ch == "[":
            end = glob.find("]", i + 2 if glob.startswith(("[!", "[^"), i) else i + 1)
            if end < 0:
                raise GlobError(f"'[' at {i + 1} is not closed")
            body = glob[i + 1 : end]
            negate = body[:1] in ("!", "^")
            body = body[1:] if negate else body
            out.append("[" + ("^" if negate else "") + body.replace("\\", "\\\\") + "]")
            i = end + 1
        else:
            out.append(re.escape(ch))
            i += 1
    return "^" + "".join(out).rstrip("/") + "(?:/.*)?$"


def glob_pattern(glob: str) -> Pattern:
    """The compiled glob, or GlobError."""
    if not glob.strip():
        raise GlobError("empty glob")
    try:
        return compile_pattern(glob_regex(glob))
    except PatternError as exc:
        raise GlobError(str(exc)) from None


def static_prefix(glob: str) -> str:
    """The path of a glob before its first wildcard ('src/**/*.py' -> 'src')."""
    fixed = []
    for part in glob.split("/"):
        if MAGIC.search(part):
            break
        fixed.append(part)
    return "/".join(fixed)
