"""Reading a CSV/TSV file in blocks of whole lines that Arrow parses exactly as Python's
csv module would, with the line number of every record and every blank line.

That holds for a file without quote characters and whose carriage returns all end lines
(CR LF): each line is then one record, split at the delimiter, as the csv module splits
it, and an empty line is a blank line. A block with a quote (or a lone CR) raises
NotPlain: the file then goes to the Python engine. Checks are C-speed byte searches and
memory holds one block at a time."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from pathlib import Path

BLOCK_BYTES = 4 << 20


class NotPlain(Exception):
    """The csv module would read this file otherwise than Arrow (a quote, a lone CR, a
    record of another width, a byte that is not UTF-8)."""


class Lines:
    """The blank lines met so far (added in order), and the line of a record (header
    being line 1)."""

    def __init__(self) -> None:
        self.blank: list[int] = []
        self._after: list[int] = []  # record index just past each blank line

    def add_blank(self, line: int) -> None:
        self._after.append(line - 2 - len(self.blank))
        self.blank.append(line)

    def line(self, record: int) -> int:
        """The line of the record with this index (0 for the first record), once the
        blank lines before it have been met."""
        return record + 2 + bisect_right(self._after, record)


def blocks(path: Path) -> Iterator[tuple[bytes, int]]:
    """The file after its header line, in blocks of whole lines (about BLOCK_BYTES), each
    with the number of lines before it; NotPlain at a block with a quote or a lone CR."""
    size = BLOCK_BYTES
    with open(path, "rb") as fh:
        fh.readline()  # the header
        done = 1  # lines read
        rest = b""
        while True:
            chunk = fh.read(size)
            data = rest + chunk
            if not chunk:
                if data:
                    yield _plain(data), done
                return
            cut = data.rfind(b"\n") + 1
            if cut == 0:
                rest = data
                continue
            block, rest = data[:cut], data[cut:]
            yield _plain(block), done
            done += block.count(b"\n")


def _plain(block: bytes) -> bytes:
    if b'"' in block:
        raise NotPlain("a quote character")
    if b"\r" in block and block.count(b"\r") != block.count(b"\r\n"):
        raise NotPlain("a carriage return that does not end a line")
    return block


def blank_lines(block: bytes, done: int, records: int) -> list[int]:
    """The blank lines of a block holding `records` records (`done` lines before it)."""
    if block.count(b"\n") + (not block.endswith(b"\n")) == records:
        return []  # a record on every line: the usual case, no search
    found = [done + 1] if block.startswith((b"\n", b"\r\n")) else []
    for pattern in (b"\n\n", b"\n\r\n") if b"\r" in block else (b"\n\n",):
        start = block.find(pattern)
        while start >= 0:
            found.append(done + block.count(b"\n", 0, start + 1) + 1)
            start = block.find(pattern, start + 1)
    return sorted(found)
