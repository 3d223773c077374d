"""CSV and TSV tables, streamed."""

from __future__ import annotations

import csv
from itertools import islice
from pathlib import Path

from officecli.readers.tabular.table import (
    CHUNK_ROWS,
    ChunkIterator,
    Opened,
    TableReadError,
    closing_on_error,
    open_text,
)


def _line_breaks(record: list[str]) -> int:
    """Lines a record spans beyond its first: the line ends inside its quoted cells."""
    return sum(c.count("\n") + c.count("\r") - c.count("\r\n") for c in record)


def delimited_rows(path: Path, encoding: str, delimiter: str, blanks: list[int]) -> Opened:
    """The header and the records of a CSV/TSV file. A record is numbered by the line it
    starts on; empty lines are not records, their numbers go to `blanks`."""
    fh = open_text(path, encoding, newline="")  # closed by open_table
    reader = csv.reader(fh, delimiter=delimiter)
    try:
        header = next(reader, [])
    except (UnicodeError, csv.Error) as exc:
        fh.close()
        raise TableReadError(f"{path.name}: {exc}") from None
    columns = closing_on_error(fh.close, path, header)

    def chunks() -> ChunkIterator:
        width = len(columns)
        done = reader.line_num  # lines read so far: the header's
        try:
            while batch := list(islice(reader, CHUNK_ROWS)):
                if reader.line_num - done == len(batch) and set(map(len, batch)) == {width}:
                    # The usual case, no per-row work: one line a record, all full width.
                    yield range(done + 1, done + 1 + len(batch)), batch
                    done = reader.line_num
                    continue
                numbers, kept, line = [], [], done
                for record in batch:
                    line += 1
                    if not record:
                        blanks.append(line)
                        continue
                    numbers.append(line)
                    kept.append((record + [""] * width)[:width])
                    line += _line_breaks(record)
                done = reader.line_num
                yield numbers, kept
        except (UnicodeError, csv.Error) as exc:
            raise TableReadError(f"{path.name}: near line {reader.line_num + 1}: {exc}") from None

    return columns, chunks(), fh.close
