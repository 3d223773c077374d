"""`${VAR}` and `${VAR:-default}` substitution; `$${...}` is a literal `${...}`.

A lone `$NAME` (no braces) is left alone: it belongs to the shell running the command.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

_REFERENCE = re.compile(r"\$\$\{|\$\{([^}]*)\}|\$\{")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class SubstitutionError(ValueError):
    def __init__(self, message: str, suggestion: str) -> None:
        super().__init__(message)
        self.message = message
        self.suggestion = suggestion


def substitute(text: str, lookup: Callable[[str], str | None]) -> str:
    """Replace every reference in text; raise SubstitutionError for undefined or malformed ones."""

    def replace(match: re.Match[str]) -> str:
        token = match.group(0)
        if token == "$${":
            return "${"
        body = match.group(1)
        if body is None:
            raise SubstitutionError(
                f"unterminated '${{' in {text!r}", "close it with '}', or write $${ for a literal"
            )
        name, sep, default = body.partition(":-")
        if not _NAME.fullmatch(name):
            raise SubstitutionError(
                f"invalid variable reference ${{{body}}}", "write ${NAME} or ${NAME:-default}"
            )
        value = lookup(name)
        if value is not None:
            return value
        if sep:
            return default
        raise SubstitutionError(
            f"undefined variable {name!r}",
            f"define {name} under `vars:` or in the environment, or write ${{{name}:-default}}",
        )

    return _REFERENCE.sub(replace, text)


def chain_lookup(*sources: Mapping[str, str]) -> Callable[[str], str | None]:
    """Look a name up in each mapping in turn (e.g. config vars, then the environment)."""

    def lookup(name: str) -> str | None:
        for source in sources:
            if name in source:
                return source[name]
        return None

    return lookup
