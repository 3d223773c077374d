"""Excel workbooks (.xlsx, .xlsm): the reader, the workbook parts, the expat sheet scan, the bulk read."""
