"""Streaming readers for tabular files: CSV/TSV, xlsx, JSON, JSON Lines and Markdown tables.

`open_table` yields a `Table` whose `rows` iterate `(row_number, {column: text})`, with
`records` and `chunks` the same single pass as lists in column order (exactly as wide as
the header; `chunks` batches them, which is how the fast consumers read), every cell as text (as written in the file; xlsx numbers and dates rendered plainly).
Row numbers count as a person does, header included: the first data row of a CSV, an
xlsx sheet or a Markdown table is row 2 (xlsx: the sheet's own row number; Markdown: the
line number in the file; JSON Lines: the line number; JSON arrays: the element's position).

Memory stays flat for CSV/TSV, xlsx (openpyxl read-only mode), JSON Lines and Markdown;
a JSON array is loaded whole because the standard library cannot stream it.
"""

from __future__ import annotations

import codecs
import csv
import json
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime, time
from itertools import islice
from pathlib import Path
from typing import Any

from agentcli.errors import InputError
from officecli.readers.paths import not_a_file

Row = dict[str, str]
RowIterator = Iterator[tuple[int, Row]]
RecordIterator = Iterator[tuple[int, list[str]]]
ChunkIterator = Iterator[tuple[Sequence[int], list[list[str]]]]
Opened = tuple[list[str], ChunkIterator, Callable[[], None]]
CHUNK_ROWS = 2048

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
_STRICT_ENCODINGS = ("utf-8-sig", "cp932")
_CHUNK = 1 << 20


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


def table_format(path: Path) -> str:
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise TableReadError(
            f"{path.name}: unsupported file type {path.suffix or '(none)'!r}",
            suggestion="use one of: " + ", ".join(sorted(FORMATS)),
        )
    return fmt


def _decodes(path: Path, encoding: str) -> bool:
    """Whether the whole file decodes strictly; read in chunks so memory stays flat."""
    decoder = codecs.getincrementaldecoder(encoding)("strict")
    try:
        with open(path, "rb") as fh:
            while chunk := fh.read(_CHUNK):
                decoder.decode(chunk)
            decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def detect_encoding(path: Path) -> str:
    """utf-8 (with or without BOM), then cp932, both strict; then charset-normalizer."""
    for encoding in _STRICT_ENCODINGS:
        if _decodes(path, encoding):
            if encoding == "utf-8-sig":
                with open(path, "rb") as fh:
                    return "utf-8-sig" if fh.read(3) == codecs.BOM_UTF8 else "utf-8"
            return encoding
    from charset_normalizer import from_path

    best = from_path(path).best()
    if best is None:
        raise TableReadError(
            f"{path.name}: cannot tell the text encoding",
            suggestion="pass --encoding, e.g. --encoding cp932",
        )
    return str(best.encoding)


def check_encoding(encoding: str) -> str:
    try:
        return codecs.lookup(encoding).name
    except LookupError:
        raise TableReadError(
            f"unknown encoding {encoding!r}", suggestion="use e.g. utf-8, cp932, shift_jis"
        ) from None


def in_chunks(records: RecordIterator) -> ChunkIterator:
    """Batch a row iterator into CHUNK_ROWS-long (numbers, records) pairs."""
    while batch := list(islice(records, CHUNK_ROWS)):
        yield [n for n, _ in batch], [r for _, r in batch]


def _check_header(path: Path, columns: list[str]) -> list[str]:
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


def _delimited_rows(path: Path, encoding: str, delimiter: str) -> Opened:
    fh = open(path, encoding=encoding, newline="")  # noqa: SIM115 - closed by open_table
    reader = csv.reader(fh, delimiter=delimiter)
    try:
        header = next(reader, [])
    except (UnicodeDecodeError, csv.Error) as exc:
        fh.close()
        raise TableReadError(f"{path.name}: {exc}") from None
    try:
        columns = _check_header(path, header)
    except TableReadError:
        fh.close()
        raise

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
        except (UnicodeDecodeError, csv.Error) as exc:
            raise TableReadError(f"{path.name}: near row {number + 1}: {exc}") from None

    return columns, chunks(), fh.close


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


def _xlsx_rows(path: Path, sheet: str | None) -> tuple[str, Opened]:
    import openpyxl

    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # noqa: BLE001 - openpyxl raises many unrelated types
        raise TableReadError(f"{path.name}: not a readable xlsx file: {exc}") from None
    if sheet is not None and sheet not in book.sheetnames:
        book.close()
        raise TableReadError(
            f"{path.name}: no sheet named {sheet!r}",
            suggestion="use --sheet with one of: " + ", ".join(book.sheetnames),
        )
    ws = book[sheet] if sheet is not None else book.worksheets[0]
    cells = ws.iter_rows(values_only=True)
    first = next(cells, None)
    header = [cell_text(v) for v in first or ()]
    while header and header[-1] == "":
        header.pop()
    try:
        columns = _check_header(path, header)
    except TableReadError:
        book.close()
        raise

    def rows() -> RecordIterator:
        width = len(columns)
        for number, values in enumerate(cells, start=(ws.min_row or 1) + 1):
            texts = [cell_text(v) for v in values[:width]]
            if any(texts):
                yield number, texts + [""] * (width - len(texts))

    return ws.title, (columns, in_chunks(rows()), book.close)


def _json_object(path: Path, where: str, item: Any) -> dict[str, Any]:
    if not isinstance(item, dict):
        raise TableReadError(
            f"{path.name}: {where} is not an object", suggestion="use one JSON object per row"
        )
    return item


def _columns_of(objects: Iterator[dict[str, Any]]) -> list[str]:
    seen: dict[str, None] = {}
    for obj in objects:
        seen.update(dict.fromkeys(obj))
    return list(seen)


def _nothing() -> None:
    return None


def _json_rows(path: Path) -> Opened:
    try:
        data = json.loads(path.read_text("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise TableReadError(f"{path.name}: not valid JSON: {exc}") from None
    if isinstance(data, dict) and len(data) == 1 and isinstance(next(iter(data.values())), list):
        data = next(iter(data.values()))  # {"rows": [...]} as well as [...]
    if not isinstance(data, list):
        raise TableReadError(f"{path.name}: expected an array of objects")
    objects = [_json_object(path, f"element {i + 1}", item) for i, item in enumerate(data)]
    columns = _columns_of(iter(objects))

    def rows() -> RecordIterator:
        for number, obj in enumerate(objects, start=1):
            yield number, [cell_text(obj.get(c)) for c in columns]

    return columns, in_chunks(rows()), _nothing


def _jsonl_objects(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    with open(path, encoding="utf-8-sig") as fh:
        for number, line in enumerate(fh, start=1):
            if line.strip():
                try:
                    item = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise TableReadError(f"{path.name}: line {number}: {exc}") from None
                yield number, _json_object(path, f"line {number}", item)


def _jsonl_rows(path: Path) -> Opened:
    # A first pass collects the columns so that the rows can stream in the second.
    columns = _columns_of(obj for _, obj in _jsonl_objects(path))

    def rows() -> Generator[tuple[int, list[str]], None, None]:
        for number, obj in _jsonl_objects(path):
            yield number, [cell_text(obj.get(c)) for c in columns]

    rows_iter = rows()
    return columns, in_chunks(rows_iter), rows_iter.close


def split_markdown_row(line: str) -> list[str]:
    """Cells of `| a | b \\| c |`; an escaped pipe stays inside its cell."""
    text = line.strip()
    text = text[1:] if text.startswith("|") else text
    text = text[:-1] if text.endswith("|") and not text.endswith("\\|") else text
    cells, current, i = [], [], 0
    while i < len(text):
        if text[i] == "\\" and text[i + 1 : i + 2] == "|":
            current.append("|")
            i += 2
            continue
        if text[i] == "|":
            cells.append("".join(current).strip())
            current = []
        else:
            current.append(text[i])
        i += 1
    cells.append("".join(current).strip())
    return cells


def _is_separator(cells: list[str]) -> bool:
    return bool(cells) and all(c and set(c) <= set(":- ") and "-" in c for c in cells)


def _markdown_rows(path: Path, encoding: str) -> Opened:
    fh = open(path, encoding=encoding)  # noqa: SIM115 - closed by open_table
    lines = enumerate(fh, start=1)
    previous: list[str] | None = None
    columns: list[str] = []
    for _, line in lines:
        cells = split_markdown_row(line) if line.lstrip().startswith("|") else None
        if cells is not None and previous is not None and _is_separator(cells):
            columns = previous
            break
        previous = cells
    if not columns:
        fh.close()
        raise TableReadError(f"{path.name}: no Markdown table found")
    try:
        columns = _check_header(path, columns)
    except TableReadError:
        fh.close()
        raise

    def rows() -> RecordIterator:
        width = len(columns)
        for number, line in lines:
            if not line.lstrip().startswith("|"):
                break
            cells = split_markdown_row(line)[:width]
            yield number, cells + [""] * (width - len(cells))

    return columns, in_chunks(rows()), fh.close


@contextmanager
def open_table(
    path: str | Path, *, sheet: str | None = None, encoding: str | None = None
) -> Iterator[Table]:
    """Open a data file for one streaming pass; the file is closed when the block ends."""
    problem = not_a_file(path)
    if problem:
        raise TableReadError(f"{str(path)!r}: {problem}", suggestion="check the data file path")
    path = Path(path)
    fmt = table_format(path)
    text_encoding = "utf-8" if fmt in ("json", "jsonl") else ""
    title = ""
    if fmt in ("csv", "tsv", "markdown"):
        text_encoding = check_encoding(encoding) if encoding else detect_encoding(path)
    if fmt == "xlsx":
        title, opened = _xlsx_rows(path, sheet)
    elif fmt == "json":
        opened = _json_rows(path)
    elif fmt == "jsonl":
        opened = _jsonl_rows(path)
    elif fmt == "markdown":
        opened = _markdown_rows(path, text_encoding)
    else:
        opened = _delimited_rows(path, text_encoding, "\t" if fmt == "tsv" else ",")
    columns, chunks, close = opened
    try:
        yield Table(path.name, fmt, columns, chunks, encoding=text_encoding, sheet=title)
    finally:
        close()
