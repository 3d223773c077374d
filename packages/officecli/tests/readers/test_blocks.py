"""Table blocks: side-by-side spreadsheet tables split on an empty column; nested Word tables."""

from __future__ import annotations

from pathlib import Path

from officecli.doc2md.markdown import render
from officecli.readers.model import ReadOptions


def test_xlsx_side_by_side_tables_split_on_an_empty_column(tmp_path: Path) -> None:
    from officecli_testkit.sheets import active_sheet
    from openpyxl import Workbook

    from officecli.readers.xlsx.reader import read_xlsx

    book = Workbook()
    sheet = active_sheet(book)
    sheet.title = "S"
    sheet.append(["Name", "Qty", None, "Code", "Label"])
    sheet.append(["pear", 3, None, "X1", "first"])
    sheet.append(["fig", 4, None, None, None])
    sheet.append([None, None, None, None, None])
    sheet.append(["Total", 7, None, None, None])
    sheet.append(["all", 1, None, None, None])
    book.save(tmp_path / "side.xlsx")
    doc = read_xlsx(tmp_path / "side.xlsx", ReadOptions())
    text = render(doc, "side_assets")
    assert [b.text for b in doc.blocks if b.kind == "heading"] == [
        "S",
        "Table 1 (A1:B3)",
        "Table 2 (D1:E2)",
        "Table 3 (A5:B6)",
    ]
    assert "| Name | Qty |\n| --- | --- |\n| pear | 3 |\n| fig | 4 |" in text
    assert "| Code | Label |\n| --- | --- |\n| X1 | first |" in text


def test_docx_nested_table_is_marked_in_its_cell(tmp_path: Path) -> None:
    import docx

    from officecli.readers.docx.reader import read_docx

    document = docx.Document()
    outer = document.add_table(rows=2, cols=2)
    outer.cell(0, 0).text = "Head"
    outer.cell(0, 1).text = "Other"
    outer.cell(1, 1).text = "plain"
    inner = outer.cell(1, 0).add_table(rows=2, cols=2)
    for r in range(2):
        for c in range(2):
            inner.cell(r, c).text = f"n{r}{c}"
    document.save(str(tmp_path / "nest.docx"))
    doc = read_docx(tmp_path / "nest.docx", ReadOptions())
    assert "| [nested table flattened] n00; n01 / n10; n11 | plain |" in render(doc, "a")
    assert doc.notes == ["nested table flattened into its parent cell"]
