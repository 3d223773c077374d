"""systemd's unit-file syntax: quoting command lines and assignments, rendering sections.

Unit files are not YAML or INI: ExecStart= splits words like a shell without one (double
or single quotes, C escapes), expands `%` specifiers and `$VAR`, and Environment= expands
specifiers only. Everything written goes through the quoting here.
"""

from __future__ import annotations

import re

_SAFE_WORD = re.compile(r"[A-Za-z0-9_@+=:,./-]+")
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escape(text: str) -> str:
    return "".join(_ESCAPES.get(ch, ch) for ch in text).replace("%", "%%")


class Specified(str):
    """A word already in unit-file syntax, written as is: e.g. a name holding `%i`, the
    instance of a template (the caller builds it from safe characters)."""


def exec_word(word: str) -> str:
    """One argv word of an Exec*= line: `%` and `$` kept literal, quoted when needed."""
    if isinstance(word, Specified) or _SAFE_WORD.fullmatch(word):
        return word
    return '"' + _escape(word).replace("$", "$$") + '"'


def exec_line(argv: list[str]) -> str:
    return " ".join(exec_word(word) for word in argv)


def assignment(key: str, value: str) -> str:
    """One Environment= entry, quoted as a whole ("KEY=value"); `$` is literal there."""
    return '"' + _escape(f"{key}={value}") + '"'


def specifier_safe(text: str) -> str:
    """A plain value (a path, a description): only `%` is special."""
    return text.replace("%", "%%").replace("\n", " ")


def render(sections: list[tuple[str, list[tuple[str, str]]]]) -> str:
    """A unit file from its sections; each holds (key, value) lines in order."""
    blocks = []
    for title, lines in sections:
        if lines:
            blocks.append("\n".join([f"[{title}]", *(f"{k}={v}" for k, v in lines)]))
    return "\n\n".join(blocks) + "\n"
