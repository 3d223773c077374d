"""A design workbook as sheets of tables: header, data rows, section labels, labelled cells.

Built on the shared xlsx reader (displayed values, merges, furigana left out) and its
table split (blank rows and columns separate tables; a merged top row makes a two-level
header `金額/税抜`). Only the header detection and the section rows are design-diff's own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from officecli.design_diff.errors import WorkbookError
from officecli.design_diff.header import Header, find_header
from officecli.design_diff.presets import Preset
from officecli.readers import registry
from officecli.readers.grid import SheetGrid, merged_cells, table_blocks, table_header
from officecli.readers.grid_rows import RowCells, merged_rows
from officecli.readers.model import ReadOptions
from officecli.readers.paths import not_a_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from officecli.readers.xlsx.bulk import RowCache

Cells = Mapping[tuple[int, int], str]
Values = Callable[[list[int], list[int]], list[list[str]]]  # rows' values in a table's columns


@dataclass
class Row:
    number: int  # 0-based sheet row
    values: list[str]  # one per table column, as shown in Excel
    section: str = ""  # the section row above it ('' when the table has none)


@dataclass
class Table:
    sheet: str
    headers: list[str]
    columns: list[int]  # 0-based sheet column of each header
    header_row: int  # 0-based sheet row of the (last) header row
    rows: list[Row]
    loose: bool = False  # the sheet's cells outside any table, keyed by each row's first cell
    span: tuple[int, int] = (0, -1)  # first and last sheet row of the table, header included


@dataclass
class Sheet:
    name: str
    tables: list[Table]
    cells: Cells = field(default_factory=dict)  # every displayed value (labelled cells)
    loose: Table | None = None  # titles, labelled cells: whatever no table holds


def _unique(headers: list[str], cols: list[int]) -> list[str]:
    """Empty headers become their column letter; repeated ones get ' (2)', ' (3)'."""
    from officecli.readers.grid import column_letter

    seen: dict[str, int] = {}
    out = []
    for header, col in zip(headers, cols, strict=True):
        name = header.strip() or f"({column_letter(col)})"
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return out


def _is_section(text: str, preset: Preset) -> bool:
    """A one-cell row is a section header when it reads like one of the preset's sections
    (any one-cell row when the preset names none)."""
    return not preset.spec.sections or bool(preset.spec.section_place(text))


def _table(
    grid: SheetGrid,
    cells: Cells,
    values_of: Values,
    block: tuple[list[int], list[int]],
    start: int,
    preset: Preset,
) -> Table:
    band, cols = block
    headers, used = table_header(grid, cells, band[start:], cols)
    body = band[start + used :]
    if not preset.section_rows:  # the common case: one Row per line, made in C
        rows = list(map(Row, body, values_of(body, cols)))
    else:
        rows = []
        section = ""
        for r, values in zip(body, values_of(body, cols), strict=True):
            filled = [v for v in values if v.strip()]
            if len(filled) == 1 and _is_section(filled[0], preset):
                section = filled[0].strip()
                continue
            rows.append(Row(r, values, section))
    last = band[start + used - 1]
    span = (band[start], band[-1])
    return Table(grid.name, _unique(headers, cols), cols, last, rows, span=span)


def sheet_tables(
    grid: SheetGrid, preset: Preset, header_row: int = 0, keys: tuple[str, ...] = ()
) -> Sheet:
    """The tables of one sheet; `header_row` (1-based, 0 = auto) fixes the header's row,
    else it is found (header.py). When some blocks name the key (--key labels or the
    preset's key roles), the others are labels around the tables, not tables.
    Dense rows (the bulk read) are read by row slices; other sheets by their dict of cells."""
    dense = merged_rows(grid.rows, grid.merges) if grid.rows is not None else None
    cells: Cells
    if dense is not None:
        cells = dense
        blocks = dense.blocks(dense.filled_rows())

        def values_of(rows: list[int], cols: list[int]) -> list[list[str]]:
            first, end = cols[0], cols[-1] + 1  # a table's columns are a run
            if first == 0 and end == len(dense.rows[rows[0]] if rows else ()):
                return list(map(dense.rows.__getitem__, rows))  # whole rows (never changed)
            return [dense.rows[r][first:end] for r in rows]
    else:
        cells = sparse = merged_cells(grid, escape=False)
        blocks = table_blocks(sparse, sorted({r for (r, _c), v in sparse.items() if v.strip()}))

        def values_of(rows: list[int], cols: list[int]) -> list[list[str]]:
            return [[sparse.get((r, c), "") for c in cols] for r in rows]

    found: list[tuple[list[int], list[int], Header]] = []
    for band, cols in blocks:
        if len(cols) < 2 or len(band) < 1:
            continue
        if header_row and band[0] <= header_row - 1 <= band[-1]:
            at = band.index(header_row - 1) if header_row - 1 in band else -1
            header = Header(at, True)
        else:
            header = find_header(cells, band, cols, preset, keys)
        if header.index >= 0:
            found.append((band, cols, header))
    if any(header.names_key for _b, _c, header in found):
        found = [block for block in found if block[2].names_key]
    tables = [_table(grid, cells, values_of, (band, cols), h.index, preset) for band, cols, h in found]  # fmt: skip
    return Sheet(grid.name, tables, cells, _loose(grid.name, cells, tables))


def _loose(sheet: str, cells: Cells, tables: list[Table]) -> Table | None:
    """The cells no table holds (titles, `メソッド | GET` above a table) as one table whose
    columns are the sheet's letters, so that a change there is reported too."""
    from officecli.readers.grid import column_letter

    held: dict[int, frozenset[int]] = {}  # row -> the columns tables hold there
    for t in tables:
        table_cols = frozenset(t.columns)  # one set shared by the rows of a table
        for r in range(t.span[0], t.span[1] + 1):
            held[r] = held[r] | table_cols if r in held else table_cols
    nothing: frozenset[int] = frozenset()
    if isinstance(cells, RowCells):
        free = cells.free(held)
    else:
        free = {k: v for k, v in cells.items() if k[1] not in held.get(k[0], nothing) and v.strip()}
    if not free:
        return None
    free |= _spaces_beside(cells, {r for r, _c in free}, held)
    cols = sorted({c for _r, c in free})
    rows = [Row(r, [free.get((r, c), "") for c in cols]) for r in sorted({r for r, _c in free})]
    headers = [f"({column_letter(c)})" for c in cols]
    return Table(sheet, headers, cols, rows[0].number, rows, loose=True)


def _spaces_beside(
    cells: Cells, rows: set[int], held: dict[int, frozenset[int]]
) -> dict[tuple[int, int], str]:
    """Cells holding only spaces on the rows of loose labels: a value turned to a space,
    or a space cleared, is a change to report (a row of spaces alone is blank)."""
    nothing: frozenset[int] = frozenset()
    if isinstance(cells, RowCells):
        found = ((r, c, v) for r in rows for c, v in enumerate(cells.rows[r]))
    else:
        found = ((r, c, v) for (r, c), v in cells.items() if r in rows)
    return {(r, c): v for r, c, v in found if v and not v.strip() and c not in held.get(r, nothing)}


def workbook_grids(
    path: str, *, formulas: bool = False, max_cells: int, rows_read: RowCache | None = None
) -> list[SheetGrid]:
    """Every sheet of an xlsx as a grid of displayed values; bad input raises
    WorkbookError or a reader's error (exit 2). `rows_read`: see read_grids."""
    from officecli.readers.xlsx.reader import read_grids

    problem = not_a_file(path)
    if problem:
        raise WorkbookError(f"{path!r}: {problem}", suggestion="check the --before/--after path")
    if registry.reader_for(path).name != "xlsx":  # unknown types: UNSUPPORTED_FORMAT
        raise WorkbookError(
            f"{path}: not an .xlsx/.xlsm workbook",
            suggestion="save the workbook as .xlsx (an .xls can be converted in Excel)",
        )
    # damaged, password-protected or unsafe files raise the readers' own errors (exit 2)
    options = ReadOptions(max_cells=max_cells, formulas=formulas)
    grids, cuts = read_grids(Path(path), options, rows_read=rows_read)
    if cuts:
        raise WorkbookError(
            f"{path}: more than {max_cells} cells", suggestion="raise --max-cells or pass --sheet"
        )
    return grids


def read_workbook(
    path: str, preset: Preset, *, header_row: int = 0, formulas: bool = False, max_cells: int
) -> list[Sheet]:
    """Every sheet of an xlsx with its tables; bad input raises WorkbookError (exit 2)."""
    grids = workbook_grids(path, formulas=formulas, max_cells=max_cells)
    return [sheet_tables(grid, preset, header_row) for grid in grids]
