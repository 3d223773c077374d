"""The rows of one xlsx sheet, streamed through the guarded Package (zip-bomb and XML
limits) with doc2md's expat scan of a sheet, the same shared strings and number formats.

Values are the cached ones, as text a person would read: numbers plainly (8800, 0.1),
cells formatted as dates as ISO dates, booleans as true/false.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from officecli.readers.numfmt import is_date_format
from officecli.readers.safety import Package
from officecli.readers.tabular.table import (
    Opened,
    RecordIterator,
    TableReadError,
    cell_text,
    closing_on_error,
    in_chunks,
)
from officecli.readers.xlsx.book import (
    cell_formats,
    shared_strings,
    sheet_refs,
    uses_1904_dates,
    workbook,
)
from officecli.readers.xlsx.sheet import SheetScan


class _Cells:
    """Cell values of one workbook, as Python values `cell_text` renders."""

    def __init__(self, pkg: Package, date1904: bool) -> None:
        self.strings = shared_strings(pkg)
        self.dates = [is_date_format(code) for code in cell_formats(pkg)]
        self.epoch = dt.datetime(1904, 1, 1) if date1904 else dt.datetime(1899, 12, 30)

    def value(self, kind: str, style: int, raw: str, inline: str) -> Any:
        if kind == "inlineStr":
            return inline
        if kind == "s":
            return self.strings[int(raw)] if raw.isdigit() and int(raw) < len(self.strings) else ""
        if kind == "b":
            return raw == "1" if raw else None
        if kind != "n" or not raw:
            return raw  # str (a formula's text), e (#N/A), d (ISO text)
        if style < len(self.dates) and self.dates[style]:
            return self._moment(raw)
        try:
            return int(raw)
        except ValueError:
            pass
        try:
            return float(raw)
        except ValueError:
            return raw

    def _moment(self, raw: str) -> Any:
        try:
            days = float(raw)
            moment = self.epoch + dt.timedelta(days=days)
        except (ValueError, OverflowError):
            return raw
        moment = (moment + dt.timedelta(microseconds=500)).replace(microsecond=0)
        return moment.time() if 0 <= days < 1 else moment


class _Rows:
    """Collects the cells SheetScan hands over into rows: (sheet row number, values by
    column), in file order; a row is complete when a cell of another row arrives."""

    def __init__(self, cells: _Cells) -> None:
        self.cells = cells
        self.done: list[tuple[int, list[Any]]] = []
        self.row = -1
        self.values: dict[int, Any] = {}

    def cell(
        self, row: int, col: int, kind: str, style: int, raw: str, inline: str, _formula: str
    ) -> bool:
        if row != self.row:
            self.flush()
            self.row = row
        self.values[col] = self.cells.value(kind, style, raw, inline)
        return True

    def flush(self) -> None:
        if self.values:
            width = max(self.values) + 1
            self.done.append((self.row + 1, [self.values.get(i) for i in range(width)]))
            self.values = {}


def _sheet_rows(pkg: Package, part: str, cells: _Cells) -> Iterator[tuple[int, list[Any]]]:
    rows = _Rows(cells)
    for _ in pkg.scan_xml_steps(part, SheetScan(rows.cell)):
        ready, rows.done = rows.done, []
        yield from ready
    rows.flush()
    yield from rows.done


def xlsx_rows(path: Path, sheet: str | None, blanks: list[int]) -> tuple[str, Opened]:
    pkg = Package(path)
    try:
        book = workbook(pkg)
        refs = [r for r in sheet_refs(pkg, book) if r.part]
        names = [r.name for r in refs]
        if not refs or (sheet is not None and sheet not in names):
            raise TableReadError(
                f"{path.name}: no sheet named {sheet!r}" if refs else f"{path.name}: no sheets",
                suggestion="use --sheet with one of: " + ", ".join(names),
            )
        ref = refs[names.index(sheet)] if sheet is not None else refs[0]
        rows = _sheet_rows(pkg, ref.part, _Cells(pkg, uses_1904_dates(book)))
        header_number, first = next(
            ((n, values) for n, values in rows if any(v not in (None, "") for v in values)),
            (0, []),
        )
    except BaseException:
        pkg.close()
        raise
    header = [cell_text(v) for v in first]
    while header and header[-1] == "":
        header.pop()
    columns = closing_on_error(pkg.close, path, header)

    def records() -> RecordIterator:
        width = len(columns)
        previous = header_number
        for number, values in rows:
            number = number or previous + 1
            blanks.extend(range(previous + 1, number))  # rows the sheet does not hold
            previous = number
            texts = [cell_text(v) for v in values[:width]]
            if any(texts):
                yield number, texts + [""] * (width - len(texts))
            else:
                blanks.append(number)

    return ref.name, (columns, in_chunks(records()), pkg.close)
