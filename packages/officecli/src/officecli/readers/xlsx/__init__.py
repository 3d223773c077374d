"""Excel workbooks (.xlsx, .xlsm): the reader, the workbook parts, the expat sheet scan, calamine values."""
