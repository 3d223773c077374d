"""User-supplied regular expressions, compiled with RE2 so that every match runs in linear time.

Python's `re` backtracks: `^(a+)+$` against 35 bytes of output takes minutes, and a log
health check runs on the supervisor's event loop. RE2 has no backtracking and refuses the
constructs that would need it (backreferences, lookaround), which we report as syntax errors.
"""

from __future__ import annotations

from typing import Any, Protocol

# re2 is imported by the first compile: a config without patterns (and `procler status`
# answered from disk) does not load the binding.

SYNTAX_HINT = "RE2 syntax, matched in linear time: no backreferences or lookaround"


class Pattern(Protocol):
    def search(self, text: str) -> object | None: ...


class PatternError(ValueError):
    """The text is not a regular expression RE2 accepts; the message says why."""


class _Search:
    """`search` as a yes/no straight on RE2's compiled program.

    The wrapper's own `search` also maps every byte offset of a match back to str offsets
    and builds a match object: 2-3x the cost of the match itself, for each line of output
    a log health check or `--grep` looks at, and nobody here reads the offsets.
    """

    __slots__ = ("_anchor", "_match")
    _NO_MATCH = (-1, -1)

    def __init__(self, compiled: Any, anchor: Any) -> None:
        self._match = compiled._regexp.Match
        self._anchor = anchor

    def search(self, text: str) -> object | None:
        data = text.encode("utf-8", "surrogatepass")
        spans = self._match(self._anchor, data, 0, len(data))
        return spans if spans[0] != self._NO_MATCH else None


def _options() -> Any:
    import re2

    options = re2.Options()
    options.log_errors = False  # RE2 would print every refused pattern to stderr
    options.never_capture = True  # groups are never read: matching without them is faster
    return options


def compile_pattern(text: str) -> Pattern:
    """A compiled linear-time pattern, or PatternError."""
    import re2

    try:
        return _Search(re2.compile(text, options=_options()), re2._Anchor.UNANCHORED)
    except re2.error as error:
        reason = error.args[0] if error.args else "invalid pattern"
        if isinstance(reason, bytes):
            reason = reason.decode("utf-8", "replace")
        raise PatternError(str(reason)) from None
