"""Tables without ruling lines: runs of lines whose words fall into the same >= 3 columns."""

from __future__ import annotations

from officecli.readers.ooxml import escape_inline
from officecli.readers.pdf.layout import Line

CELL_GAP = 1.0  # share of the font size: a wider gap between words starts a new cell
MIN_COLUMNS = 3
MIN_ROWS = 2

Segment = tuple[float, float, str]  # (x0, x1, text)
Run = list[tuple[Line, list[Segment]]]  # table lines with their cells


def _segments(line: Line) -> list[Segment]:
    """The line's words joined into cells: words closer than CELL_GAP belong together."""
    cells: list[Segment] = []
    for x0, x1, text in line.words:
        if cells and x0 - cells[-1][1] <= CELL_GAP * line.size:
            cells[-1] = (cells[-1][0], x1, cells[-1][2] + " " + text)
        else:
            cells.append((x0, x1, text))
    return cells


def _columns(rows: list[list[Segment]]) -> list[tuple[float, float]] | None:
    """Column spans: the union of overlapping cell spans. None when a row has two cells in one."""
    spans: list[tuple[float, float]] = []
    for x0, x1, _ in sorted(cell for row in rows for cell in row):
        if spans and x0 <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(spans[-1][1], x1))
        else:
            spans.append((x0, x1))
    for row in rows:
        used = [_column_of(cell[0], spans) for cell in row]
        if len(set(used)) < len(used):
            return None
    return spans if len(spans) >= MIN_COLUMNS else None


def _column_of(x: float, spans: list[tuple[float, float]]) -> int:
    return next((i for i, (x0, x1) in enumerate(spans) if x0 <= x <= x1), len(spans) - 1)


def _table(run: Run, between: list[Line]) -> list[list[str]] | None:
    """Cells of a run of table lines; a line between two rows (not overlapping them) continues
    the row above in the column where it starts, e.g. a wrapped description."""
    spans = _columns([cells for _, cells in run])
    if spans is None:
        return None
    rows: list[list[str]] = []
    tops: list[float] = []
    for line, cells in run:
        row = [""] * len(spans)
        for x0, _, text in cells:
            row[_column_of(x0, spans)] = escape_inline(text)
        rows.append(row)
        tops.append(line.top)
    for line in between:
        above = max(i for i, top in enumerate(tops) if top < line.top)
        col = _column_of(line.words[0][0], spans)
        rows[above][col] = (rows[above][col] + " " + escape_inline(line.text)).strip()
    return rows


def _is_continuation(line: Line, before: Line, after: Line | None) -> bool:
    """Close below a row, in no larger type, clear of the next row: a wrapped cell, not a
    heading or a line laid over the table. After the last row only smaller type continues it."""
    if after is None and line.size >= before.size:
        return False
    return (
        line.size <= before.size
        and 0 < line.top - before.bottom < line.size
        and (after is None or line.bottom < after.top)
    )


def _is_overlaid(line: Line, before: Line) -> bool:
    """Text drawn across the table (a note in the margin): it starts inside the row above."""
    return line.top < before.bottom


def _is_row(line: Line, cells: list[Segment], row: Line, last: Line) -> bool:
    """Three cells, or two in the table's type (a sparse row), close below the table."""
    close = line.top - last.bottom < 2 * line.size
    return close and (len(cells) >= MIN_COLUMNS or (len(cells) == 2 and line.size == row.size))


def _collect(lines: list[Line], i: int) -> tuple[Run, list[Line], list[Line], int]:
    """The table run starting at lines[i]: rows, wrapped-cell lines, overlaid lines, next index."""
    run: Run = []
    between: list[Line] = []
    overlaid: list[Line] = []
    cells = _segments(lines[i])
    if len(cells) < MIN_COLUMNS:
        return run, between, overlaid, i
    run.append((lines[i], cells))
    last = lines[i]
    j = i + 1
    while j < len(lines):
        line, cells = lines[j], _segments(lines[j])
        after = lines[j + 1] if j + 1 < len(lines) else None
        if after is not None and not _is_row(after, _segments(after), run[-1][0], line):
            after = None
        if _is_row(line, cells, run[-1][0], last):
            run.append((line, cells))
        elif after is not None and _is_overlaid(line, run[-1][0]):
            overlaid.append(line)
        elif _is_continuation(line, run[-1][0], after):
            between.append(line)
        else:
            break
        if not overlaid or overlaid[-1] is not line:
            last = line
        j += 1
    return run, between, overlaid, j


Bounds = tuple[float, float, float, float]  # x0, top, x1, bottom (pdfplumber's bbox order)
Placed = tuple[Bounds, list[list[str]]]  # a table where it stands, and its rows


def bounds(lines: list[Line]) -> Bounds:
    """The box around some lines."""
    return (
        min(line.words[0][0] for line in lines),
        min(line.top for line in lines),
        max(line.words[-1][1] for line in lines),
        max(line.bottom for line in lines),
    )


def borderless_tables(lines: list[Line]) -> tuple[list[Placed], list[Line]]:
    """(bounds, rows) of each table found among the lines, and the lines left outside."""
    tables: list[Placed] = []
    rest: list[Line] = []
    i = 0
    while i < len(lines):
        run, between, overlaid, j = _collect(lines, i)
        rows = _table(run, between) if len(run) >= MIN_ROWS else None
        if rows is None:
            rest.append(lines[i])
            i += 1
            continue
        tables.append((bounds([row for row, _cells in run] + between), rows))
        rest += overlaid
        i = j
    return tables, rest
