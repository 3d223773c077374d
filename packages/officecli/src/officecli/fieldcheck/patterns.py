"""User regular expressions (`pattern` rules, `matches()`), run by RE2: matching takes
time linear in the text, so no pattern (even one read from a data column) can backtrack
for minutes. RE2 refuses what it cannot run in linear time (backreferences, lookaround)."""

from __future__ import annotations

from functools import lru_cache
from typing import Protocol

import re2

_OPTIONS = re2.Options()
_OPTIONS.log_errors = False  # the error is reported to the caller, not logged by RE2


class Pattern(Protocol):
    pattern: str

    def fullmatch(self, text: str) -> object: ...


class PatternError(ValueError):
    """A regular expression RE2 cannot compile; the message says why."""


@lru_cache(maxsize=256)
def compile_pattern(text: str) -> Pattern:
    try:
        return re2.compile(text, _OPTIONS)  # type: ignore[no-any-return]
    except re2.error as exc:
        reason = exc.args[0] if exc.args else exc
        if isinstance(reason, bytes):
            reason = reason.decode("utf-8", "replace")
        raise PatternError(
            f"{reason} (RE2 syntax: no backreferences or lookaround; see "
            "https://github.com/google/re2/wiki/Syntax)"
        ) from None
