"""Legacy Excel (.xls) reader via xlrd, feeding the same sheet-to-tables code as .xlsx."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

from officecli.readers.grid import SheetGrid, bound_merges, sheet_blocks
from officecli.readers.model import Document, ReadOptions, count_chars
from officecli.readers.numfmt import format_value, general
from officecli.readers.safety import BrokenFileError, EncryptedFileError

MAX_XLS_BYTES = 256 * 1024 * 1024


def _display(book: Any, sheet: Any, row: int, col: int, iso: bool) -> tuple[str, int]:
    import xlrd

    cell = sheet.cell(row, col)
    if cell.ctype in (xlrd.XL_CELL_EMPTY, xlrd.XL_CELL_BLANK):
        return "", 0
    if cell.ctype == xlrd.XL_CELL_TEXT:
        return str(cell.value), count_chars(str(cell.value))
    if cell.ctype == xlrd.XL_CELL_BOOLEAN:
        return ("TRUE" if cell.value else "FALSE"), 1
    if cell.ctype == xlrd.XL_CELL_ERROR:
        return xlrd.error_text_from_code.get(cell.value, "#ERR"), 1
    code = "General"
    xf = book.xf_list[cell.xf_index] if cell.xf_index is not None else None
    if xf is not None and xf.format_key in book.format_map:
        code = book.format_map[xf.format_key].format_str
    if cell.ctype == xlrd.XL_CELL_DATE and code == "General":
        code = "yyyy-mm-dd"
    value = float(cell.value)
    return (format_value(value, code, book.datemode == 1, iso) if code else general(value)), 1


def read_xls(path: Path, options: ReadOptions) -> Document:
    import xlrd

    if path.stat().st_size > MAX_XLS_BYTES:
        raise BrokenFileError(f"{path.name}: larger than {MAX_XLS_BYTES} bytes")
    try:
        book = xlrd.open_workbook(path, formatting_info=True, on_demand=True)
    except xlrd.biffh.XLRDError as exc:
        if "encrypt" in str(exc).lower():
            raise EncryptedFileError(f"{path.name}: the workbook is password-protected") from None
        raise BrokenFileError(f"{path.name}: not a readable .xls workbook ({exc})") from None
    except zipfile.BadZipFile as exc:  # xlrd takes a file starting with PK for a zip
        raise BrokenFileError(f"{path.name}: not a readable .xls workbook ({exc})") from None
    doc = Document()
    doc.counts["sheets"] = book.nsheets
    left = options.max_cells
    for index in range(book.nsheets):
        sheet = book.sheet_by_index(index)
        hidden = sheet.visibility != 0
        if hidden and options.skip_hidden:
            continue
        grid = SheetGrid(sheet.name, hidden=hidden)
        grid.merges = [(r1, c1, r2 - 1, c2 - 1) for r1, r2, c1, c2 in sheet.merged_cells]
        grid.hidden_rows = {r for r, info in sheet.rowinfo_map.items() if info.hidden}
        grid.hidden_cols = {c for c, info in sheet.colinfo_map.items() if info.hidden}
        for row in range(sheet.nrows):
            for col in range(sheet.ncols):
                text, raw = _display(book, sheet, row, col, options.iso_dates)
                if not text:
                    continue
                if left <= 0:
                    doc.cuts.append(
                        f"cut at --max-cells {options.max_cells}: sheet {sheet.name!r} incomplete"
                    )
                    break
                left -= 1
                grid.cells[(row, col)] = text
                hidden_cell = row in grid.hidden_rows or col in grid.hidden_cols
                doc.raw_chars += 0 if options.skip_hidden and hidden_cell else raw
        cost = bound_merges(grid, max(left, 0))
        if cost > left:
            doc.cuts.append(
                f"cut at --max-cells {options.max_cells}: the merged ranges of sheet "
                f"{sheet.name!r} cover more cells than were left; those past it are not applied"
            )
        left = max(left - cost, 0)
        sheet_blocks(grid, doc, options)
        book.unload_sheet(index)
    return doc
