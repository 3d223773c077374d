"""`${VAR}` and `${VAR:-default}` substitution; `$${...}` is a literal `${...}`.

A lone `$NAME` (no braces) is left alone: it belongs to the shell running the command.

Substitution is the other way, after YAML aliases, that a small file becomes a big config:
`V1: "${V0}${V0}"`, `V2: "${V1}${V1}"`... doubles at every line, so 26 lines made 1 GB.
Two budgets bound it: one value (MAX_VALUE) and everything one config load substitutes
(MAX_EXPANSION, an `Expansion` shared by the load's lookups), each checked before the text
that would cross it is built.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

_REFERENCE = re.compile(r"\$\$\{|\$\{([^}]*)\}|\$\{")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Linux's MAX_ARG_STRLEN: no argument or environment string may be longer, so no value
# that a process could be given is refused.
MAX_VALUE = 128 * 1024
# What the variables of one config may add in all (a 100 KB certificate in fifty env values
# fits); without it, 20,000 values (the YAML node budget) of MAX_VALUE would make 2.6 GB.
MAX_EXPANSION = 16 * 1024 * 1024


class SubstitutionError(ValueError):
    def __init__(self, message: str, suggestion: str) -> None:
        super().__init__(message)
        self.message = message
        self.suggestion = suggestion


def substitute(text: str, lookup: Callable[[str], str | None]) -> str:
    """Replace every reference in text; raise SubstitutionError for undefined or malformed
    ones, and for a result longer than MAX_VALUE (before building it)."""
    parts: list[str] = []
    size = 0
    done = 0
    for match in _REFERENCE.finditer(text):
        value = _value(match, text, lookup)
        size += match.start() - done + len(value)
        if size > MAX_VALUE:
            raise SubstitutionError(
                f"the value is longer than {MAX_VALUE} characters once {match.group(0)!r}"
                " is substituted",
                "use shorter values: a variable that uses another one twice doubles it",
            )
        parts += (text[done : match.start()], value)
        done = match.end()
    return "".join(parts) + text[done:] if parts else text


def _value(match: re.Match[str], text: str, lookup: Callable[[str], str | None]) -> str:
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


class Expansion:
    """What one config load's lookups may still hand out, in characters (MAX_EXPANSION)."""

    def __init__(self, limit: int = MAX_EXPANSION) -> None:
        self.left = limit
        self.told = False

    def spend(self, value: str) -> str:
        self.left -= len(value)
        if self.left >= 0:
            return value
        if self.told:  # said once, at the value that crossed it; the rest adds nothing
            return ""
        self.told = True
        raise SubstitutionError(
            f"variables substituted in this config add more than {MAX_EXPANSION} characters",
            "reference long variables in fewer places",
        )


def chain_lookup(
    *sources: Mapping[str, str], expansion: Expansion | None = None
) -> Callable[[str], str | None]:
    """Look a name up in each mapping in turn (e.g. config vars, then the environment),
    counting what it hands out against `expansion` when given."""

    def lookup(name: str) -> str | None:
        for source in sources:
            if name in source:
                value = source[name]
                return value if expansion is None else expansion.spend(value)
        return None

    return lookup
