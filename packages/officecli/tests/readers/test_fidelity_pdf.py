"""PDFs read as a person reads them (asserted on the parsed Markdown): two columns read
one after the other with full-width lines in place, wrapped lines joined into paragraphs
(CJK without a space), headings by size and weight, bullets as nested list items."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from officecli_testkit.markdown_tree import outline

from officecli.doc2md.markdown import render
from officecli.readers import libreoffice
from officecli.readers.model import ReadOptions
from officecli.readers.pdf.layout import Line
from officecli.readers.pdf.reader import read_pdf
from officecli.readers.pdf.text import Glyphs, group_blocks, group_lines

if TYPE_CHECKING:
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Flowable

DEPOT = (
    "The new depot in Leeds opened this month after a construction period that began in "
    "the spring of last year, and forty staff moved there from the old site."
)
SHUTTLE = "Staff can book the shuttle bus from the station every morning before eight."
REMOTE = (
    "Remote work is available two days a week for office staff who have agreed it with "
    "their manager, and the booking tool shows who is in the office."
)
CANTEEN = "The canteen menu changes weekly and vegetarian dishes are offered every day."
TARGETS = [["Depot", "Target", "Result"], ["Leeds", "120", "131"], ["Hull", "90", "97"]]
DEPOTS = "Three depots exceeded their targets for the quarter, two of them by a wide margin."
FOOTER = "This closing note spans the whole width of the page, below both columns of text."
JAPANESE = (
    "経費の精算は、経費が発生した日から三十日以内に申請してください。申請書は上長が承認する"
    "までの間、何度でも修正できます。承認後の修正は経理部に依頼してください。"
)


def _bullet_style(name: str, indent: float, glyph_size: float) -> ParagraphStyle:
    """A list paragraph whose bullet is a ZapfDingbats glyph `indent` points in."""
    from reportlab.lib.styles import ParagraphStyle

    return ParagraphStyle(
        name, fontName="Helvetica", fontSize=10, leading=13, leftIndent=indent + 16,
        spaceAfter=3, bulletFontName="ZapfDingbats", bulletFontSize=glyph_size,
        bulletIndent=indent,
    )  # fmt: skip


def _styles() -> dict[str, ParagraphStyle]:
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont

    pdfmetrics.registerFont(UnicodeCIDFont("HeiseiMin-W3"))
    pdfmetrics.registerFont(UnicodeCIDFont("HeiseiKakuGo-W5"))
    return {
        "title": ParagraphStyle("t", fontName="Helvetica-Bold", fontSize=20, leading=24),
        "head": ParagraphStyle("h", fontName="Helvetica-Bold", fontSize=13, leading=16),
        "body": ParagraphStyle("b", fontName="Helvetica", fontSize=10, leading=13, spaceAfter=8),
        "jp": ParagraphStyle(
            "j", fontName="HeiseiMin-W3", fontSize=10, leading=15, wordWrap="CJK", spaceAfter=8
        ),
        "jp_head": ParagraphStyle("jh", fontName="Helvetica-Bold", fontSize=10, leading=14),
        "bullet": _bullet_style("u", indent=0, glyph_size=14),
        "sub": _bullet_style("s", indent=16, glyph_size=8),
    }


def _newsletter(path: Path) -> None:
    """Page 1: a title, two columns, a table and a closing line across the page. Page 2: a
    bold heading in
    body type, symbol-font bullets (larger than the text) with a nested item, a numbered
    section line in body type, a wrapped Japanese paragraph."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import Frame, Paragraph, Table, TableStyle

    styles = _styles()
    width, height = A4
    canvas = Canvas(str(path), pagesize=A4)

    def frame(x: float, top: float, w: float, h: float, items: list[tuple[str, str]]) -> None:
        story: list[Flowable] = [
            Paragraph(text, styles[style], bulletText="l" if style in ("bullet", "sub") else None)
            for style, text in items
        ]
        Frame(x, top - h, w, h, showBoundary=0, leftPadding=0, rightPadding=0).addFromList(
            story, canvas
        )

    frame(50, height - 40, width - 100, 40, [("title", "Company newsletter, June")])
    column = (width - 100 - 24) / 2
    frame(
        50, height - 90, column, 300, [("head", "Depot news"), ("body", DEPOT), ("body", SHUTTLE)]
    )
    frame(
        74 + column,
        height - 90,
        column,
        300,
        [("head", "People"), ("body", REMOTE), ("body", CANTEEN)],
    )
    table = Table(TARGETS, colWidths=[(width - 100) / 3] * 3)
    table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, "black")]))
    Frame(50, height - 360, width - 100, 80, showBoundary=0).addFromList([table], canvas)
    frame(50, height - 400, width - 100, 40, [("body", FOOTER)])
    canvas.showPage()
    page2 = [
        ("jp_head", "2.1 Expense claims"),
        ("bullet", DEPOTS),
        ("sub", "with forty staff"),
        ("bullet", "Leeds opened on time"),
        ("jp", "3.2 申請画面の項目"),
        ("jp", JAPANESE),
        ("jp", "次の段落です。"),
    ]
    frame(50, height - 40, 220, 500, page2)
    canvas.save()


def test_two_columns_paragraphs_headings_bullets_and_japanese(tmp_path: Path) -> None:
    _newsletter(tmp_path / "news.pdf")
    doc = read_pdf(tmp_path / "news.pdf", ReadOptions())
    assert outline(render(doc, "x_assets")) == [
        ("h", 1, "Company newsletter, June"),
        ("h", 2, "Depot news"),
        ("p", DEPOT),
        ("p", SHUTTLE),
        ("h", 2, "People"),
        ("p", REMOTE),
        ("p", CANTEEN),
        ("table", TARGETS),  # across both columns, in its place
        ("p", FOOTER),
        ("h", 3, "2.1 Expense claims"),
        ("li", 0, False, DEPOTS),
        ("li", 1, False, "with forty staff"),
        ("li", 0, False, "Leeds opened on time"),
        ("h", 3, "3.2 申請画面の項目"),
        ("p", JAPANESE),
        ("p", "次の段落です。"),
    ]
    assert doc.dropped_glyphs == 0


def _line(top: float, x: float, *words: str) -> Line:
    """A 10-point line of words 30 points apart, each starting at x."""
    placed = [(x + 30 * i, x + 30 * i + 24, w) for i, w in enumerate(words)]
    return Line(placed, top, top + 10, 10.0, ["Helvetica"] * len(words))


def test_cid_and_private_use_bullets_become_items_and_stray_glyphs_are_counted() -> None:
    lines = [
        _line(100, 50, "(cid:127)", "Three", "depots"),
        _line(114, 70, "\uf0b7", "Leeds"),
        _line(128, 50, "(cid:127)Hull", "closed"),
        _line(170, 50, "Plain", "(cid:3)text", "\ue001"),
        _line(210, 50, "3.", "Book", "the", "trip"),
    ]
    glyphs = Glyphs()
    blocks = group_blocks(group_lines(lines, {}, 0), glyphs)
    assert [(b.kind, b.level, b.text) for _, b in blocks] == [
        ("list_item", 0, "Three depots"),
        ("list_item", 1, "Leeds"),
        ("list_item", 0, "Hull closed"),
        ("paragraph", 0, "Plain text"),
        ("list_item", 0, "Book the trip"),
    ]
    assert blocks[-1][1].number == 3
    assert (glyphs.markers, glyphs.dropped) == (len("(cid:127)") * 2 + 1 + 2, len("(cid:3)") + 1)


def test_a_wrapped_japanese_table_cell_joins_without_a_space(tmp_path: Path) -> None:
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Table, TableStyle

    styles = _styles()
    cell = styles["jp"]
    rows = [
        [Paragraph(t, cell) for t in ("項目", "説明")],
        [Paragraph(t, cell) for t in ("日付", "経費が発生した日付を入力します")],
        [Paragraph(t, cell) for t in ("金額", "税込みの金額")],
    ]
    table = Table(rows, colWidths=[60, 70])
    table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, "black")]))
    SimpleDocTemplate(str(tmp_path / "table.pdf")).build([table])
    text = render(read_pdf(tmp_path / "table.pdf", ReadOptions()), "x_assets")
    assert outline(text) == [
        (
            "table",
            [
                ["項目", "説明"],
                ["日付", "経費が発生した日付を入力します"],
                ["金額", "税込みの金額"],
            ],
        )
    ]


def test_dropped_glyphs_are_a_loss_warning() -> None:
    from officecli.doc2md.audit import audit
    from officecli.doc2md.markdown import Counts

    findings = audit("x.pdf", Counts(), Counts(), 0, dropped_glyphs=3)
    assert [(f.rule_id, f.severity, f.expected) for f in findings] == [
        ("loss.glyphs", "warning", "3")
    ]


@pytest.mark.skipif(
    libreoffice.soffice() is None and not os.environ.get("CI"),
    reason="needs LibreOffice (apt-get install libreoffice-writer; .ci/run installs it)",
)
def test_a_pdf_printed_by_libreoffice(tmp_path: Path) -> None:
    """LibreOffice writes bullets as the private-use U+F0B7 of OpenSymbol."""
    import docx

    document = docx.Document()
    document.add_heading("経費精算の手引き", level=1)
    document.add_paragraph(JAPANESE)
    document.add_heading("1.1 申請の流れ", level=2)
    document.add_paragraph("Receipts are scanned at the depot", style="List Bullet")
    document.add_paragraph("Leeds and Hull scan every morning", style="List Bullet 2")
    document.add_paragraph(DEPOTS, style="List Bullet")
    document.add_paragraph("申請する", style="List Number")
    document.add_paragraph("承認を待つ", style="List Number")
    document.save(str(tmp_path / "guide.docx"))
    pdf = libreoffice.convert(tmp_path / "guide.docx", "pdf", tmp_path)
    doc = read_pdf(pdf, ReadOptions())
    assert outline(render(doc, "x_assets")) == [
        ("h", 1, "経費精算の手引き"),
        ("p", JAPANESE),
        ("h", 2, "1.1 申請の流れ"),
        ("li", 0, False, "Receipts are scanned at the depot"),
        ("li", 1, False, "Leeds and Hull scan every morning"),
        ("li", 0, False, DEPOTS),
        ("li", 0, True, "申請する"),
        ("li", 0, True, "承認を待つ"),
    ]
    assert doc.dropped_glyphs == 0


def test_a_wrapped_title_is_one_heading(tmp_path: Path) -> None:
    from reportlab.lib.pagesizes import A4
    from reportlab.platypus import Paragraph, SimpleDocTemplate

    styles = _styles()
    title = "Quarterly report of the northern logistics centres and their new depots"
    story: list[Flowable] = [Paragraph(title, styles["title"]), Paragraph(DEPOT, styles["body"])]
    SimpleDocTemplate(str(tmp_path / "title.pdf"), pagesize=A4).build(story)
    text = render(read_pdf(tmp_path / "title.pdf", ReadOptions()), "x_assets")
    assert outline(text) == [("h", 1, title), ("p", DEPOT)]


def test_line_breaks_join_like_the_script_they_break() -> None:
    from officecli.readers.pdf.layout import join_lines

    assert join_lines("申請書の", "PDFを添付します") == "申請書のPDFを添付します"
    assert join_lines("社員ID", "を入力") == "社員IDを入力"
    assert join_lines("reasons con-", "firming it") == "reasons confirming it"
    assert join_lines("the multi-", "Agent case") == "the multi-Agent case"
    assert join_lines("two", "lines") == "two lines"
