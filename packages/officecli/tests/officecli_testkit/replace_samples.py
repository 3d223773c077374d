"""Documents with every place text lives in, shared by office-replace's tests of a format
and its LibreOffice round trip: a workbook (shared, inline and rich strings, furigana, a
drawing's shape, a chart title; made with openpyxl then patched), a deck (title, table,
nested groups, chart, notes) and a Word text box."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pptx
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont
from openpyxl.chart import BarChart, Reference
from pptx.chart.data import CategoryChartData
from pptx.enum.chart import XL_CHART_TYPE
from pptx.util import Inches

from officecli_testkit.replace_helpers import add_override, add_rel, patch_zip, write_rules
from officecli_testkit.sheets import active_sheet

A_NS = "http://schemas.openxmlformats.org/drawingml/2006/main"
SHAPE = (
    "<oneCellAnchor><from><col>0</col><colOff>0</colOff><row>5</row><rowOff>0</rowOff></from>"
    f'<ext cx="100" cy="100"/><sp xmlns:a="{A_NS}"><nvSpPr><cNvPr id="9" name="Note box"/>'
    '<cNvSpPr txBox="1"/></nvSpPr><spPr/><txBody><a:bodyPr/><a:p><a:r><a:t>shape Acme Corp</a:t>'
    "</a:r></a:p></txBody></sp><clientData/></oneCellAnchor>"
)
INLINE = '<row r="9"><c r="A9" t="inlineStr"><is><t>inline Acme Corp</t></is></c></row>'
X_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
SHARED = (
    f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="{X_NS}" count="4" uniqueCount="3">'
    "<si><t>Acme Corp</t></si>"
    '<si><t>株式会社アクメ</t><rPh sb="0" eb="4"><t>カブシキガイシャ</t></rPh><phoneticPr fontId="1"/></si>'
    '<si><r><rPr><b/></rPr><t xml:space="preserve">Acme </t></r><r><t>Corp unused</t></r></si></sst>'
)
SST_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"


def shared_cells(xml: str) -> str:
    """A1, B1 and A3 written by openpyxl as inline strings become shared-string cells."""
    for ref, text, index in (
        ("A1", "Acme Corp", 0),
        ("B1", "Acme Corp", 0),
        ("A3", "株式会社アクメ", 1),
    ):
        escaped = "".join(c if c.isascii() else f"&#{ord(c)};" for c in text)  # as openpyxl writes
        inline = f'<c r="{ref}" t="inlineStr"><is><t>{escaped}</t></is></c>'
        assert inline in xml
        xml = xml.replace(inline, f'<c r="{ref}" t="s"><v>{index}</v></c>')
    return xml


def text_rules(tmp_path: Path) -> Path:
    return write_rules(
        tmp_path / "rules.csv",
        [
            ["id", "find", "replace"],
            ["co", "Acme Corp", "Globex Inc"],
            ["jp", "アクメ", "グローブ"],
        ],
    )


def book_with_everything(path: Path) -> Path:
    wb = openpyxl.Workbook()
    ws = active_sheet(wb)
    ws.title = "表紙"
    ws["A1"] = "Acme Corp"
    ws["B1"] = "Acme Corp"
    ws["A2"] = CellRichText(
        [TextBlock(InlineFont(b=True), "Acme "), TextBlock(InlineFont(i=True), "Corp tail")]
    )
    ws["A3"] = "株式会社アクメ"
    for row in range(4, 7):
        ws.cell(row, 3, row)
    chart = BarChart()
    chart.title = "Acme Corp sales"
    chart.add_data(Reference(ws, min_col=3, min_row=4, max_row=6))
    ws.add_chart(chart, "E1")
    wb.save(path)
    patch_zip(
        path,
        {
            "xl/drawings/drawing1.xml": lambda xml: xml.replace("</wsDr>", SHAPE + "</wsDr>"),
            "xl/worksheets/sheet1.xml": lambda xml: shared_cells(xml).replace(
                "</sheetData>", INLINE + "</sheetData>"
            ),
            "xl/sharedStrings.xml": SHARED,
            "xl/_rels/workbook.xml.rels": add_rel("rIdS", "sharedStrings", "sharedStrings.xml"),
            "[Content_Types].xml": add_override("xl/sharedStrings.xml", SST_TYPE),
        },
    )
    return path


TEXTBOX = (
    '<w:r><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006">'
    '<mc:Choice Requires="wps"><w:drawing><wp:anchor xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing">'
    '<wp:docPr id="1" name="Box"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">'
    '<a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">'
    '<wps:wsp xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:txbx>'
    "<w:txbxContent><w:p><w:r><w:t>box Acme Corp</w:t></w:r></w:p></w:txbxContent></wps:txbx></wps:wsp>"
    "</a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict>"
    '<v:shape xmlns:v="urn:schemas-microsoft-com:vml"><v:textbox><w:txbxContent><w:p><w:r>'
    "<w:t>box Acme Corp</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback>"
    "</mc:AlternateContent></w:r>"
)


def deck(path: Path) -> Path:
    prs = pptx.Presentation()
    first = prs.slides.add_slide(prs.slide_layouts[5])
    first.shapes.title.text = "Acme Corp plan"
    prs.slides.add_slide(prs.slide_layouts[6])  # blank: no hit, part untouched
    third = prs.slides.add_slide(prs.slide_layouts[6])
    table = third.shapes.add_table(2, 2, Inches(1), Inches(1), Inches(4), Inches(2)).table
    table.cell(1, 0).text = "Acme Corp"
    outer = third.shapes.add_group_shape()
    inner = outer.shapes.add_group_shape()
    box = inner.shapes.add_textbox(Inches(1), Inches(4), Inches(2), Inches(1))
    box.name = "Deep box"
    box.text_frame.text = "deep Acme Corp"
    data = CategoryChartData()
    data.categories = ["a", "b"]
    data.add_series("s", (1, 2))
    chart = third.shapes.add_chart(
        XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(5), Inches(1), Inches(3), Inches(2), data
    ).chart
    chart.has_title = True
    chart.chart_title.text_frame.text = "Acme Corp revenue"
    third.notes_slide.notes_text_frame.text = "say Acme Corp"
    prs.save(str(path))
    return path
