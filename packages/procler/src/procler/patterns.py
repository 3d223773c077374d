"""User-supplied regular expressions, compiled with RE2 so that every match runs in linear time.

Python's `re` backtracks: `^(a+)+$` against 35 bytes of output takes minutes, and a log
health check runs on the supervisor's event loop. RE2 has no backtracking and refuses the
constructs that would need it (backreferences, lookaround), which we report as syntax errors.
"""

from __future__ import annotations

from typing import Any, Protocol, cast

import re2

SYNTAX_HINT = "RE2 syntax, matched in linear time: no backreferences or lookaround"


class Pattern(Protocol):
    def search(self, text: str) -> object | None: ...


class PatternError(ValueError):
    """The text is not a regular expression RE2 accepts; the message says why."""


def _options() -> Any:
    options = re2.Options()
    options.log_errors = False  # RE2 would print every refused pattern to stderr
    return options


def compile_pattern(text: str) -> Pattern:
    """A compiled linear-time pattern, or PatternError."""
    try:
        return cast(Pattern, re2.compile(text, options=_options()))
    except re2.error as error:
        reason = error.args[0] if error.args else "invalid pattern"
        if isinstance(reason, bytes):
            reason = reason.decode("utf-8", "replace")
        raise PatternError(str(reason)) from None
