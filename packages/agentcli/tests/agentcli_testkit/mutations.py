"""Mutations of a valid text file (a config, a rules file, a preset) for the property tests
that every tool answers whatever it is given: one JSON document, never exit 3, and each
finding at a real line and column."""

from __future__ import annotations

import re

from hypothesis import strategies as st

# What people and fuzzers put where a value goes: YAML's corners (aliases, tags, directives,
# merge keys, block scalars), numbers of every spelling, quotes, control characters, a lone
# surrogate (bytes that are not UTF-8), a byte order mark.
TOKENS = [
    "0",
    "-1",
    "9" * 40,
    "''",
    "[]",
    "{}",
    "null",
    "~",
    "*worker",
    "&x",
    "%YAML 1.3",
    "<<",
    "ß",
    "\t",
    "@",
    "`",
    "'",
    '"',
    ":",
    "- ",
    "? ",
    "|",
    ">",
    "#",
    "!!binary",
    "!tag",
    "${X",
    "$${PORT}",
    "1e400",
    "0x1F",
    "010",
    "on",
    "12:30",
    "\\x",
    "\udcff",
    "\x00",
    "\ufeff",
    ",",
    "=cmd|' /C calc'!A0",
]


@st.composite
def mutated(draw: st.DrawFn, base: str) -> str:
    """base with one to three of its lines replaced, cut, dropped, doubled or re-indented, or
    a token put into them."""
    lines = base.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        if not lines:
            break
        index = draw(st.integers(0, len(lines) - 1))
        line = lines[index]
        kind = draw(st.sampled_from(["replace", "insert", "drop", "duplicate", "indent", "cut"]))
        if kind == "replace" and ":" in line:
            lines[index] = line.split(":", 1)[0] + ": " + draw(st.sampled_from(TOKENS))
        elif kind == "insert":
            at = draw(st.integers(0, len(line)))
            lines[index] = line[:at] + draw(st.sampled_from(TOKENS)) + line[at:]
        elif kind == "drop":
            del lines[index]
        elif kind == "duplicate":
            lines.insert(index, line)
        elif kind == "indent":
            lines[index] = draw(st.sampled_from(["", " ", "   ", "      "])) + line.lstrip()
        else:
            lines[index] = line[: draw(st.integers(0, len(line)))]
    return "\n".join(lines) + "\n"


def written(path: str, text: str) -> int:
    """Write text (lone surrogates as the bytes they stand for); its number of lines."""
    with open(path, "wb") as handle:
        handle.write(text.encode("utf-8", "surrogateescape"))
    return text.count("\n") + 1


def positions(message: str, name: str) -> list[tuple[int, int]]:
    """Every NAME:LINE:COLUMN a message points at."""
    return [(int(a), int(b)) for a, b in re.findall(rf"{re.escape(name)}:(\d+):(\d+)", message)]
