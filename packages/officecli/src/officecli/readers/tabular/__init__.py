"""Streaming readers for tabular files: CSV/TSV, xlsx, JSON, JSON Lines and Markdown tables,
one module per format.

`open_table` yields a `Table` whose `rows` iterate `(row_number, {column: text})`, with
`records` and `chunks` the same single pass as lists in column order (exactly as wide as
the header; `chunks` batches them, which is how the fast consumers read), every cell as
text (as written in the file; xlsx numbers and dates rendered plainly). Row numbers are
line numbers, counted as a person does, header included: the first data row of a CSV
is line 2, and a record whose quoted cell spans lines has the number of its first line
(xlsx: the sheet's own row number; Markdown and JSON Lines: the line in the file; JSON
arrays: the element's position). Blank lines (CSV, TSV, JSON Lines) and blank sheet rows
are not records; their numbers are collected in `Table.blank_lines` during the pass.

Memory stays flat for CSV/TSV, xlsx, JSON Lines and Markdown; a JSON array is loaded whole
because the standard library cannot stream it. xlsx goes through `readers.safety.Package`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from agentcli import confine
from officecli.readers.paths import not_a_file
from officecli.readers.tabular.encoding import check_encoding, detect_encoding
from officecli.readers.tabular.markdown_table import split_markdown_row
from officecli.readers.tabular.table import CHUNK_ROWS, Opened, Table, TableReadError, cell_text

__all__ = [
    "CHUNK_ROWS",
    "FORMATS",
    "Table",
    "TableReadError",
    "cell_text",
    "open_table",
    "split_markdown_row",
    "table_format",
]

FORMATS = {
    ".csv": "csv",
    ".txt": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".xlsx": "xlsx",
    ".xlsm": "xlsx",
    ".json": "json",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".md": "markdown",
    ".markdown": "markdown",
}
TEXT_FORMATS = ("csv", "tsv", "markdown")


def table_format(path: Path) -> str:
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise TableReadError(
            f"{path.name}: unsupported file type {path.suffix or '(none)'!r}",
            suggestion="use one of: " + ", ".join(sorted(FORMATS)),
        )
    return fmt


def _open(
    path: Path, fmt: str, sheet: str | None, encoding: str, blanks: list[int]
) -> tuple[str, Opened]:
    """(sheet title, opened table); each format's module loads only when used. Readers
    append the numbers of blank lines (rows) to `blanks` as they pass them."""
    if fmt == "xlsx":
        from officecli.readers.tabular.xlsx_rows import xlsx_rows

        return xlsx_rows(path, sheet, blanks)
    if fmt in ("json", "jsonl"):
        from officecli.readers.tabular.json_rows import json_rows, jsonl_rows

        return "", (json_rows(path) if fmt == "json" else jsonl_rows(path, blanks))
    if fmt == "markdown":
        from officecli.readers.tabular.markdown_table import markdown_rows

        return "", markdown_rows(path, encoding)
    from officecli.readers.tabular.delimited import delimited_rows

    return "", delimited_rows(path, encoding, "\t" if fmt == "tsv" else ",", blanks)


@contextmanager
def open_table(
    path: str | Path, *, sheet: str | None = None, encoding: str | None = None
) -> Iterator[Table]:
    """Open a data file for one streaming pass; the file is closed when the block ends."""
    confine.check(path)
    problem = not_a_file(path)
    if problem:
        raise TableReadError(f"{str(path)!r}: {problem}", suggestion="check the data file path")
    path = Path(path)
    fmt = table_format(path)
    text_encoding = "utf-8" if fmt in ("json", "jsonl") else ""
    if fmt in TEXT_FORMATS:
        text_encoding = check_encoding(encoding, path) if encoding else detect_encoding(path)
    blanks: list[int] = []
    title, (columns, chunks, close) = _open(path, fmt, sheet, text_encoding, blanks)
    try:
        yield Table(
            path.name, fmt, columns, chunks, encoding=text_encoding, sheet=title, blank_lines=blanks
        )
    finally:
        close()
