"""Reading a process's records with their positions, both ways, and the cursor that names
a position in each log.

A position is (segment number, byte offset just after a record's newline): where reading
forward resumes. Answers are paginated on positions (procler.logs.query): a tail first
counts backwards to the position its oldest line starts at; unless the records it passed
fit in one page (then they are the answer), it reads forward from there, at most a page;
the answer's cursor is where it stopped, in each log.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from agentcli.errors import UsageError
from procler.logs.follow import Position
from procler.logs.segment import BLOCK_SIZE, last_newline_end, list_segments, segment_path

Cursor = dict[str, Position]  # process -> where its log was read up to
CURSOR_HINT = "pass the `cursor` of an earlier answer as it is"


def lines_forward(folder: Path, start: Position, end: Position) -> Iterator[tuple[bytes, Position]]:
    """(line, position just after it) from `start` up to `end`, across segments; a segment
    that rotation deleted meanwhile is skipped (its lines are gone)."""
    number, offset = start
    for current in list_segments(folder):
        if current < number or current > end[0]:
            continue
        try:
            file = segment_path(folder, current).open("rb")
        except FileNotFoundError:
            continue
        with file:
            size = os.fstat(file.fileno()).st_size
            stop = end[1] if current == end[0] else last_newline_end(file, size)
            pos = offset if current == number else 0  # where `pending` starts
            file.seek(pos)
            pending = b""
            while chunk := file.read(min(BLOCK_SIZE, stop - pos - len(pending))):
                *lines, pending = (pending + chunk).split(b"\n")
                for line in lines:
                    pos += len(line) + 1
                    yield line, (current, pos)


def cursor_text(cursor: Cursor) -> str:
    """`NAME:SEGMENT:OFFSET`, comma-separated (names hold no ':' or ',')."""
    return ",".join(f"{name}:{number}:{offset}" for name, (number, offset) in cursor.items())


def parse_cursor(text: str) -> Cursor:
    """The positions a cursor names; UsageError when it is not one."""
    cursor: Cursor = {}
    for part in text.split(","):
        name, _, rest = part.partition(":")
        number, _, offset = rest.partition(":")
        if not (name and number.isdigit() and offset.isdigit()) or len(part) > 300:
            raise UsageError(f"invalid --after cursor {text[:80]!r}", suggestion=CURSOR_HINT)
        cursor[name] = (int(number), int(offset))
    return cursor
