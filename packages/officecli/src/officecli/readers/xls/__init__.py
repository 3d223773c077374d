"""Legacy Excel workbooks (.xls), read through xlrd into the same grids as .xlsx."""
