"""The open table every tabular reader returns, and what the readers share: the error,
header checks, chunking and the text of a cell value."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time
from itertools import islice
from pathlib import Path
from typing import Any, TextIO

from agentcli.errors import InputError
from agentcli.files import open_regular

Row = dict[str, str]
RowIterator = Iterator[tuple[int, Row]]
RecordIterator = Iterator[tuple[int, list[str]]]
ChunkIterator = Iterator[tuple[Sequence[int], list[list[str]]]]
Opened = tuple[list[str], ChunkIterator, Callable[[], None]]
CHUNK_ROWS = 2048


class TableReadError(InputError):
    """The data file cannot be read as a table (same code as any unusable input)."""

    default_suggestion = "check the file path, its format and its encoding (--encoding)"


@dataclass
class Table:
    """An open table: its columns and a one-pass iterator over its rows."""

    name: str
    format: str
    columns: list[str]
    chunks: ChunkIterator
    encoding: str = ""
    sheet: str = ""
    # Lines (sheet rows) of the part read so far that hold no cell at all; a reader adds
    # them as its pass goes, so a consumer can report them next to the rows around them.
    blank_lines: list[int] = field(default_factory=list)

    @property
    def records(self) -> RecordIterator:
        """The rows one by one as (row number, cells); shares the one pass with `chunks`."""
        for numbers, batch in self.chunks:
            yield from zip(numbers, batch, strict=True)

    @property
    def rows(self) -> RowIterator:
        """The records as {column: text}; shares the one pass with `records`."""
        columns = self.columns
        return ((n, dict(zip(columns, record, strict=True))) for n, record in self.records)


def open_text(path: Path, encoding: str, newline: str | None = None) -> TextIO:
    """A data file opened as text once its descriptor shows a regular file (a pipe or a
    device named as data is NotRegularFileError, never a read that blocks)."""
    return io.TextIOWrapper(open_regular(path, path.name), encoding=encoding, newline=newline)


def in_chunks(records: RecordIterator) -> ChunkIterator:
    """Batch a row iterator into CHUNK_ROWS-long (numbers, records) pairs."""
    while batch := list(islice(records, CHUNK_ROWS)):
        yield [n for n, _ in batch], [r for _, r in batch]


def check_header(path: Path, columns: list[str]) -> list[str]:
    if not columns:
        raise TableReadError(f"{path.name}: no header row", suggestion="add a header row")
    seen: set[str] = set()
    for name in columns:
        if name in seen:
            raise TableReadError(
                f"{path.name}: the column {name!r} appears twice in the header",
                suggestion="give every column a distinct name",
            )
        seen.add(name)
    return columns


def closing_on_error(close: Callable[[], None], path: Path, header: list[str]) -> list[str]:
    """The checked header; the file is closed first when the header is refused."""
    try:
        return check_header(path, header)
    except TableReadError:
        close()
        raise


def cell_text(value: Any) -> str:
    """A spreadsheet or JSON value as the text a person would read."""
    if value is None:
        return ""
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e16 else repr(value)
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == time() else value.isoformat(" ")
    if isinstance(value, date | time):
        return value.isoformat()
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def nothing() -> None:
    return None
