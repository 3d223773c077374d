"""The worksheet a workbook made or loaded by the tests opens on, typed: openpyxl's stubs type
`Workbook.active` as optional (a workbook may have no sheet) and as any kind of sheet, while
the tests' workbooks always open on a worksheet."""

from __future__ import annotations

from openpyxl import Workbook
from openpyxl.worksheet.worksheet import Worksheet


def active_sheet(book: Workbook) -> Worksheet:
    """`book`'s active worksheet (a new workbook's one sheet); TypeError when it has none."""
    sheet = book.active
    if not isinstance(sheet, Worksheet):
        raise TypeError(f"the workbook opens on {sheet!r}, not a worksheet")
    return sheet
