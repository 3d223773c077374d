"""Readers on fixtures generated here: merges, text boxes, hidden sheets, notes, Japanese."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from officecli.doc2md.audit import audit
from officecli.doc2md.markdown import measured, recognised, render
from officecli.readers.model import Document, ReadOptions
from officecli.readers.safety import UnsafeFileError, parse_xml


def md(doc: Document) -> str:
    return render(doc, "x_assets")


def test_docx_merged_cells_and_japanese(tmp_path: Path) -> None:
    import docx

    from officecli.readers.docx.reader import read_docx

    document = docx.Document()
    document.add_heading("見出し　全角", level=1)
    table = document.add_table(rows=3, cols=3)
    for r in range(3):
        for c in range(3):
            table.cell(r, c).text = f"{r}{c}"
    table.cell(1, 0).merge(table.cell(2, 0)).text = "縦"
    table.cell(0, 1).merge(table.cell(0, 2)).text = "横"
    document.add_paragraph("item", style="List Bullet")
    document.save(str(tmp_path / "a.docx"))
    text = md(read_docx(tmp_path / "a.docx", ReadOptions()))
    assert text.splitlines()[0] == "# 見出し　全角"
    assert "| 00 | 横 |  |\n| --- | --- | --- |\n| 縦 | 11 | 12 |\n| 縦 | 21 | 22 |" in text
    assert "\n- item\n" in text


TEXTBOX = (
    '<w:r><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006">'
    '<mc:Choice Requires="wps"><w:drawing><wp:anchor xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing">'
    '<wp:docPr id="1" name="Box"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">'
    '<a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">'
    '<wps:wsp xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:txbx>'
    "<w:txbxContent><w:p><w:r><w:t>BOXTEXT</w:t></w:r></w:p></w:txbxContent></wps:txbx></wps:wsp>"
    "</a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict>"
    '<v:shape xmlns:v="urn:schemas-microsoft-com:vml"><v:textbox><w:txbxContent><w:p><w:r>'
    "<w:t>BOXTEXT</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback>"
    "</mc:AlternateContent></w:r>"
)


def _patch_document(path: Path, marker: str, insert: str) -> None:
    with zipfile.ZipFile(path) as src:
        parts = {n: src.read(n) for n in src.namelist()}
    body = parts["word/document.xml"].decode("utf-8")
    parts["word/document.xml"] = body.replace(marker, marker + insert, 1).encode("utf-8")
    with zipfile.ZipFile(path, "w") as dst:
        for name, data in parts.items():
            dst.writestr(name, data)


def test_docx_text_box_read_once(tmp_path: Path) -> None:
    import docx

    from officecli.readers.docx.reader import read_docx

    document = docx.Document()
    document.add_paragraph("ANCHOR")
    document.save(str(tmp_path / "box.docx"))
    _patch_document(tmp_path / "box.docx", "<w:t>ANCHOR</w:t></w:r>", TEXTBOX)
    doc = read_docx(tmp_path / "box.docx", ReadOptions())
    assert md(doc).count("BOXTEXT") == 1
    assert doc.raw_chars == len("ANCHOR") + len("BOXTEXT")


def test_docx_smartart_loss_is_reported(tmp_path: Path) -> None:
    import docx

    from officecli.readers.docx.reader import read_docx

    document = docx.Document()
    document.add_paragraph("ANCHOR")
    document.save(str(tmp_path / "smart.docx"))
    graphic = (
        '<w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing">'
        '<wp:docPr id="2" name="Diagram"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">'
        '<a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/diagram"/></a:graphic>'
        "</wp:inline></w:drawing></w:r>"
    )
    _patch_document(tmp_path / "smart.docx", "<w:t>ANCHOR</w:t></w:r>", graphic)
    with zipfile.ZipFile(tmp_path / "smart.docx", "a") as z:
        words = "".join(f"<a:t>step number {n} of the process</a:t>" for n in range(10))
        z.writestr(
            "word/diagrams/data1.xml",
            f'<dgm:dataModel xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" '
            f'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">{words}</dgm:dataModel>',
        )
    doc = read_docx(tmp_path / "smart.docx", ReadOptions())
    text = md(doc)
    findings = audit("smart.docx", recognised(doc), measured(text), doc.raw_chars)
    assert [f.rule_id for f in findings] == ["loss.images", "loss.raw_text"]


def test_xlsx_merges_hidden_sheet_number_formats(tmp_path: Path) -> None:
    import datetime

    from officecli_testkit.sheets import active_sheet
    from openpyxl import Workbook

    from officecli.readers.xlsx.reader import read_xlsx

    book = Workbook()
    sheet = active_sheet(book)
    sheet.title = "売上"
    sheet.append(["地域", "2024", None])
    sheet.append([None, "上期", "下期"])
    sheet.append(["東", 1.0, 0.25])
    sheet.append([None, 2.5, datetime.date(2024, 3, 1)])
    sheet.merge_cells("B1:C1")
    sheet.merge_cells("A3:A4")
    sheet["C3"].number_format = "0%"
    sheet["C4"].number_format = "yyyy-mm-dd"
    hidden = book.create_sheet("secret")
    hidden.append(["hidden value", 1])
    hidden.sheet_state = "hidden"
    book.save(tmp_path / "b.xlsx")
    text = md(read_xlsx(tmp_path / "b.xlsx", ReadOptions()))
    assert (
        "## 売上\n\n### Table 1 (A1:C4)\n\n| 地域 | 2024 | 2024 |\n| --- | --- | --- |\n"
        "|  | 上期 | 下期 |\n| 東 | 1 | 25% |\n| 東 | 2.5 | 2024-03-01 |"
    ) in text
    assert "## secret (hidden)" in text
    skipped = md(read_xlsx(tmp_path / "b.xlsx", ReadOptions(skip_hidden=True)))
    assert "secret" not in skipped


def test_pptx_notes_table_and_reading_order(tmp_path: Path) -> None:
    from pptx import Presentation
    from pptx.util import Inches

    from officecli.readers.pptx.reader import read_pptx

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "計画"
    slide.shapes.add_textbox(Inches(1), Inches(5), Inches(2), Inches(1)).text_frame.text = "LOWER"
    slide.shapes.add_textbox(Inches(1), Inches(2), Inches(2), Inches(1)).text_frame.text = "UPPER"
    table = slide.shapes.add_table(2, 2, Inches(1), Inches(3), Inches(4), Inches(1)).table
    table.cell(0, 0).text, table.cell(0, 1).text = "k", "v"
    table.cell(1, 0).text, table.cell(1, 1).text = "a", "1"
    slide.notes_slide.notes_text_frame.text = "話す内容"
    deck.save(str(tmp_path / "c.pptx"))
    text = md(read_pptx(tmp_path / "c.pptx", ReadOptions()))
    assert text == (
        "## Slide 1: 計画\n\nUPPER\n\n| k | v |\n| --- | --- |\n| a | 1 |\n\nLOWER\n\n"
        "### Notes\n\n話す内容\n"
    )


def test_pptx_chart_without_cached_data_is_a_loss(tmp_path: Path) -> None:
    from pptx import Presentation
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Inches

    from officecli.readers.pptx.reader import read_pptx

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    data = CategoryChartData()
    data.categories = ["a", "b"]
    data.add_series("s", (1, 2))
    slide.shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, 0, 0, Inches(4), Inches(3), data)
    deck.save(str(tmp_path / "d.pptx"))
    with zipfile.ZipFile(tmp_path / "d.pptx") as src:
        parts = {n: src.read(n) for n in src.namelist()}
    chart = next(n for n in parts if n.startswith("ppt/charts/chart"))
    import re

    parts[chart] = re.sub(rb"<c:(str|num)Cache>.*?</c:\1Cache>", b"", parts[chart], flags=re.S)
    with zipfile.ZipFile(tmp_path / "d.pptx", "w") as dst:
        for name, payload in parts.items():
            dst.writestr(name, payload)
    doc = read_pptx(tmp_path / "d.pptx", ReadOptions())
    findings = audit("d.pptx", recognised(doc), measured(md(doc)), doc.raw_chars)
    assert [f.rule_id for f in findings] == ["loss.images"]
    assert doc.notes == ["chart without cached data not converted"]


def test_entity_expansion_is_refused() -> None:
    bomb = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>'
    with pytest.raises(UnsafeFileError):
        parse_xml(bomb, "bomb.xml")


def test_zip_bomb_is_refused(tmp_path: Path) -> None:
    from officecli.readers.safety import Package

    path = tmp_path / "bomb.docx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("word/document.xml", b"\0" * (20 * 1024 * 1024))
    with pytest.raises(UnsafeFileError, match="ratio"):
        Package(path)


def test_plain_drawio_with_user_object(tmp_path: Path) -> None:
    from officecli.readers.drawio.reader import read_drawio

    path = tmp_path / "plain.drawio"
    path.write_text(
        '<mxfile><diagram name="P"><mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>'
        '<UserObject label="&lt;b&gt;開始&lt;/b&gt;" id="a"><mxCell vertex="1" parent="1"/></UserObject>'
        '<mxCell id="b" value="End" vertex="1" parent="1"/>'
        '<mxCell id="e" value="go" edge="1" source="a" target="b" parent="1"/>'
        "</root></mxGraphModel></diagram></mxfile>",
        "utf-8",
    )
    text = md(read_drawio(path, ReadOptions()))
    assert text == "## P\n\n### Shapes\n\n- 開始\n- End\n\n### Edges\n\n- 開始 -> End (go)\n"
