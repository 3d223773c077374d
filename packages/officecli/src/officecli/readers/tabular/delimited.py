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


def delimited_rows(path: Path, encoding: str, delimiter: str) -> Opened:
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
        number = 1  # the header's row
        try:
            while batch := list(islice(reader, CHUNK_ROWS)):
                if set(map(len, batch)) == {width}:  # the usual case: no per-row work
                    yield range(number + 1, number + 1 + len(batch)), batch
                    number += len(batch)
                    continue
                numbers, kept = [], []
                for record in batch:
                    number += 1
                    if record:  # an empty line is counted but not a row
                        numbers.append(number)
                        kept.append((record + [""] * width)[:width])
                yield numbers, kept
        except (UnicodeError, csv.Error) as exc:
            raise TableReadError(f"{path.name}: near row {number + 1}: {exc}") from None

    return columns, chunks(), fh.close
