"""Excel and PowerPoint constructs as a reader sees them (asserted on the parsed Markdown):
hidden content marked and reported, titles above tables, numbers as formatted, numbered
slide paragraphs and chart titles."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from officecli_testkit.markdown_tree import outline

from officecli.doc2md import Options, convert
from officecli.doc2md.markdown import render
from officecli.readers.model import ReadOptions
from officecli.readers.xlsx.reader import read_xlsx


def _shift_book(path: Path) -> None:
    import openpyxl
    from officecli_testkit.sheets import active_sheet

    book = openpyxl.Workbook()
    sheet = active_sheet(book)
    sheet.title = "Shifts"
    sheet.append(["物流センター 6月前半シフト表"])
    sheet.merge_cells("A1:C1")
    sheet.append(["氏名", "日付", "稼働率"])
    sheet.append(["佐藤", dt.datetime(2024, 6, 3), 0.55])
    sheet.append(["鈴木", dt.datetime(2024, 6, 4), 0.8])
    sheet.append(["(退職)", dt.datetime(2024, 6, 5), 0.1])
    for row in (3, 4, 5):
        sheet.cell(row, 2).number_format = "m/d"
        sheet.cell(row, 3).number_format = "0%"
    sheet.row_dimensions[5].hidden = True
    sheet.append([])
    sheet.append(["単位：円"])
    sheet.append(["品目", "金額", "計上日"])
    sheet.append(["倉庫賃料", 1250000, dt.datetime(2024, 6, 30)])
    sheet.append(["備品", 38000.5, dt.datetime(2024, 7, 1)])
    for row in (9, 10):
        sheet.cell(row, 2).number_format = '"¥"#,##0'
        sheet.cell(row, 3).number_format = "yyyy/m/d"
    sheet.column_dimensions["D"].hidden = True
    sheet["D8"] = "内部メモ"
    secret = book.create_sheet("Rates")
    secret.append(["code", "rate"])
    secret.append(["A", 1.5])
    secret.sheet_state = "hidden"
    book.save(path)


def _two_row_header_book(path: Path) -> None:
    """A shift schedule: week labels merged over dated columns, names merged down both rows."""
    import openpyxl
    from officecli_testkit.sheets import active_sheet

    book = openpyxl.Workbook()
    sheet = active_sheet(book)
    sheet.title = "勤務表"
    sheet.append(["氏名", "第1週", None, None, "第2週", None, "備考"])
    sheet.append([None, dt.datetime(2024, 6, 3), dt.datetime(2024, 6, 4), dt.datetime(2024, 6, 5),
                  dt.datetime(2024, 6, 10), dt.datetime(2024, 6, 11), None])  # fmt: skip
    sheet.append(["佐藤", "○", "", "○", "○", "", "早番"])
    sheet.append(["鈴木", "", "○", "○", "", "○", ""])
    for col in range(2, 7):
        sheet.cell(2, col).number_format = "m/d"
    sheet.merge_cells("A1:A2")
    sheet.merge_cells("B1:D1")
    sheet.merge_cells("E1:F1")
    book.save(path)


def test_a_two_row_header_keeps_each_date_in_its_own_cell(tmp_path: Path) -> None:
    _two_row_header_book(tmp_path / "shifts.xlsx")
    text = render(read_xlsx(tmp_path / "shifts.xlsx", ReadOptions()), "x_assets")
    assert outline(text) == [
        ("h", 2, "勤務表"),
        ("h", 3, "Table 1 (A1:G4)"),
        (
            "table",
            [
                ["氏名", "第1週", "第1週", "第1週", "第2週", "第2週", "備考"],
                ["", "6/3", "6/4", "6/5", "6/10", "6/11", ""],
                ["佐藤", "○", "", "○", "○", "", "早番"],
                ["鈴木", "", "○", "○", "", "○", ""],
            ],
        ),
    ]


def test_titles_formats_and_hidden_content_marked(tmp_path: Path) -> None:
    _shift_book(tmp_path / "shifts.xlsx")
    text = render(read_xlsx(tmp_path / "shifts.xlsx", ReadOptions()), "x_assets")
    assert outline(text) == [
        ("h", 2, "Shifts"),
        ("h", 3, "Table 1 (A1:C5)"),
        ("p", "物流センター 6月前半シフト表"),
        (
            "table",
            [
                ["氏名", "日付", "稼働率"],
                ["佐藤", "6/3", "55%"],
                ["鈴木", "6/4", "80%"],
                ["(退職)", "6/5", "10%"],
            ],
        ),
        ("p", "(hidden in the workbook: rows 5)"),
        ("h", 3, "Table 2 (A7:D10)"),
        ("p", "単位：円"),
        (
            "table",
            [
                ["品目", "金額", "計上日", "内部メモ"],
                ["倉庫賃料", "¥1,250,000", "2024-06-30", ""],
                ["備品", "¥38,001", "2024-07-01", ""],
            ],
        ),
        ("p", "(hidden in the workbook: columns D)"),
        ("h", 2, "Rates (hidden)"),
        ("h", 3, "Table 1 (A1:B2)"),
        ("table", [["code", "rate"], ["A", "1.5"]]),
    ]


def test_hidden_content_is_a_warning_and_skip_hidden_drops_it(tmp_path: Path) -> None:
    _shift_book(tmp_path / "shifts.xlsx")
    kept = convert(tmp_path / "shifts.xlsx")
    warnings = [(f.rule_id, f.actual) for f in kept.findings if f.severity == "warning"]
    assert warnings == [("content.hidden", "1 sheets, 1 rows, 1 columns")]
    dropped = convert(tmp_path / "shifts.xlsx", Options(skip_hidden=True))
    assert [f.rule_id for f in dropped.findings if f.severity == "warning"] == []
    assert "退職" not in dropped.markdown and "Rates" not in dropped.markdown
    assert "内部メモ" not in dropped.markdown


@pytest.mark.parametrize(("iso", "shown"), [(False, "6/3"), (True, "2024-06-03")])
def test_iso_dates_on_request(tmp_path: Path, iso: bool, shown: str) -> None:
    _shift_book(tmp_path / "shifts.xlsx")
    text = render(read_xlsx(tmp_path / "shifts.xlsx", ReadOptions(iso_dates=iso)), "x_assets")
    assert f"| 佐藤 | {shown} | 55% |" in text


def test_numbered_slide_paragraphs_and_chart_title(tmp_path: Path) -> None:
    from lxml import etree
    from pptx import Presentation
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Inches

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "手順"
    frame = slide.shapes.add_textbox(Inches(1), Inches(1.5), Inches(6), Inches(2)).text_frame
    frame.text = "申請する"
    second = frame.add_paragraph()
    second.add_run().text = "承認を"
    second.add_line_break()
    second.add_run().text = "待つ"
    for paragraph in frame.paragraphs:
        ppr = paragraph._p.get_or_add_pPr()
        etree.SubElement(
            ppr,
            "{http://schemas.openxmlformats.org/drawingml/2006/main}buAutoNum",
            type="arabicPeriod",
        )
    data = CategoryChartData(number_format="0%")
    data.categories = ["東京", "大阪"]
    data.add_series("構成比", (0.55, 0.45))
    chart = slide.shapes.add_chart(
        XL_CHART_TYPE.PIE, Inches(1), Inches(4), Inches(4), Inches(3), data
    ).chart
    chart.has_title = True
    chart.chart_title.text_frame.text = "拠点別の構成比"
    deck.save(str(tmp_path / "steps.pptx"))
    assert outline(convert(tmp_path / "steps.pptx").markdown) == [
        ("h", 2, "Slide 1: 手順"),
        ("li", 0, True, "申請する"),
        ("li", 0, True, "承認を\n待つ"),  # a line break kept as a hard break
        ("p", "拠点別の構成比"),
        ("table", [["Category", "構成比"], ["東京", "55%"], ["大阪", "45%"]]),
    ]


def _with_cached_values(path: Path, values: list[float], code: str) -> None:
    """Write the cache Excel keeps in a chart (openpyxl writes none) for its one series
    (openpyxl's chart part uses the chart namespace as its default)."""
    import zipfile

    with zipfile.ZipFile(path) as src:
        parts = {n: src.read(n) for n in src.namelist()}
    chart = parts["xl/charts/chart1.xml"].decode("utf-8")
    points = "".join(f'<pt idx="{i}"><v>{v}</v></pt>' for i, v in enumerate(values))
    cache = f'<numCache><formatCode>{code}</formatCode><ptCount val="{len(values)}"/>{points}</numCache>'
    chart = chart.replace("</f></numRef></val>", f"</f>{cache}</numRef></val>", 1)
    parts["xl/charts/chart1.xml"] = chart.encode("utf-8")
    with zipfile.ZipFile(path, "w") as dst:
        for name, data in parts.items():
            dst.writestr(name, data)


def test_a_workbook_chart_keeps_its_title_and_number_format(tmp_path: Path) -> None:
    import openpyxl
    from officecli_testkit.sheets import active_sheet
    from openpyxl.chart import BarChart, Reference

    book = openpyxl.Workbook()
    sheet = active_sheet(book)
    for row in (["拠点", "構成比"], ["東京", 0.55], ["大阪", 0.45]):
        sheet.append(row)
    chart = BarChart()
    chart.title = "拠点別の構成比"
    chart.add_data(Reference(sheet, min_col=2, min_row=2, max_row=3))
    sheet.add_chart(chart, "D2")
    book.save(tmp_path / "chart.xlsx")
    without_cache = render(read_xlsx(tmp_path / "chart.xlsx", ReadOptions()), "x_assets")
    assert "<!-- image not extracted: chart 拠点別の構成比 without cached data -->" in without_cache
    _with_cached_values(tmp_path / "chart.xlsx", [0.55, 0.45], "0%")
    text = render(read_xlsx(tmp_path / "chart.xlsx", ReadOptions()), "x_assets")
    assert outline(text)[-2:] == [
        ("h", 3, "Chart: 拠点別の構成比"),
        ("table", [["Category", "Series 1"], ["", "55%"], ["", "45%"]]),
    ]
