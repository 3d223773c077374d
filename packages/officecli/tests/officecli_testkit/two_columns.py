"""Two-column newsletters for the reading-order tests, made by LibreOffice (a Word document
with two-column sections printed to PDF) and by reportlab (frames): a full-width title above
two columns, a picture spanning both columns, two more columns below it; in Japanese and in
English. Each column's heading and paragraphs are what the Markdown must keep whole."""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from docx.document import Document
    from docx.section import Section
    from reportlab.platypus import Flowable

JAPANESE = {
    "title": "社内報 2024年6月号",
    "h1": "新物流センターが本格稼働",
    "l1": "横浜市の新物流センターが六月一日に本格稼働しました。延床面積は約二万平方メートルで、"
    "自動倉庫と仕分けロボットを備えています。",
    "l2": "稼働初月の出荷件数は前年同月比で三割増となり、当日出荷の締め時刻を午後三時まで"
    "延ばすことができました。",
    "h2": "在宅勤務制度の見直し",
    "r1": "在宅勤務は、七月から週二日まで申請できるようになります。申請は上長の承認を得た"
    "うえで、勤怠システムから行ってください。",
    "r2": "通信費の補助として月額三千円を支給します。対象は在宅勤務を月四日以上行った社員です。",
    "h3": "安全週間の取り組み",
    "l3": "全拠点で安全週間を実施し、フォークリフトの点検と避難訓練を行いました。参加者は"
    "延べ八百名にのぼりました。",
    "h4": "新入社員の紹介",
    "r3": "今年度は十二名の新入社員を迎えました。配属先は物流センターと本社営業部です。研修は"
    "八月まで続きます。",
}
ENGLISH = {
    "title": "Company newsletter, June 2024",
    "h1": "New depot opens in Leeds",
    "l1": "The new depot in Leeds opened this month after a construction period that began in "
    "the spring of last year, and forty staff moved there from the old site.",
    "l2": "In its first month the depot shipped a third more parcels than the old site did a "
    "year ago, and same-day orders now close at three in the afternoon.",
    "h2": "Remote work from July",
    "r1": "Remote work is available two days a week from July for office staff who have "
    "agreed it with their manager in the booking tool.",
    "r2": "Staff who work from home at least four days a month receive a monthly allowance "
    "towards their internet costs.",
    "h3": "Safety week",
    "l3": "Every site held a safety week with forklift checks and a fire drill, and eight "
    "hundred people took part over the five days.",
    "h4": "New colleagues",
    "r3": "Twelve graduates joined us this year; they start at the depot and at head office "
    "sales, and their training runs until August.",
}
# (kind, key): the columns above the picture, then the columns below it
ABOVE = (("h", "h1"), ("p", "l1"), ("p", "l2"), ("h", "h2"), ("p", "r1"), ("p", "r2"))
BELOW = (("h", "h3"), ("p", "l3"), ("h", "h4"), ("p", "r3"))


def picture_png() -> bytes:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (900, 180), (230, 240, 250))
    ImageDraw.Draw(image).rectangle((20, 20, 880, 160), outline=(0, 0, 120), width=6)
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return buf.getvalue()


def expected(texts: dict[str, str], title: int, heading: int) -> list[tuple[Any, ...]]:
    """The outline a reader must give: the title, each column whole, the picture between."""

    def part(items: tuple[tuple[str, str], ...]) -> list[tuple[Any, ...]]:
        return [("h", heading, texts[k]) if kind == "h" else ("p", texts[k]) for kind, k in items]

    picture = ("img", "picture on page 1")
    return [("h", title, texts["title"]), *part(ABOVE), picture, *part(BELOW)]


def _columns(section: Section, number: int) -> None:
    from docx.oxml.ns import qn

    cols = section._sectPr.find(qn("w:cols"))
    if cols is None:
        cols = section._sectPr.makeelement(qn("w:cols"), {})
        section._sectPr.append(cols)
    cols.set(qn("w:num"), str(number))
    cols.set(qn("w:space"), "567")  # 1 cm between the columns


def _column_break(document: Document) -> None:
    from docx.enum.text import WD_BREAK

    document.add_paragraph().add_run().add_break(WD_BREAK.COLUMN)


def word_newsletter(path: Path, texts: dict[str, str], font: str) -> None:
    """A Word document: a one-column title, two columns (a column break between them), a
    one-column picture, two more columns; LibreOffice prints it to PDF."""
    import docx
    from docx.enum.section import WD_SECTION
    from docx.shared import Cm, Pt

    document = docx.Document()
    for style in ("Normal", "Heading 1", "Heading 2"):
        document.styles[style].font.name = font
        document.styles[style].element.rPr.rFonts.set(
            "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}eastAsia", font
        )
    document.styles["Normal"].font.size = Pt(10.5)
    document.add_heading(texts["title"], level=1)
    for items in (ABOVE, BELOW):
        _columns(document.add_section(WD_SECTION.CONTINUOUS), 2)
        for i, (kind, key) in enumerate(items):
            if kind == "h" and i:  # each heading starts a column
                _column_break(document)
            if kind == "h":
                document.add_heading(texts[key], level=2)
            else:
                document.add_paragraph(texts[key])
        if items is ABOVE:
            _columns(document.add_section(WD_SECTION.CONTINUOUS), 1)
            document.add_picture(io.BytesIO(picture_png()), width=Cm(16))
    document.save(str(path))


def reportlab_newsletter(path: Path, texts: dict[str, str], japanese: bool) -> None:
    """Frames: a title across the page, two columns whose lines do not line up (the right
    column starts lower, with other spacing), a picture across both, two more columns."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import Frame, Paragraph

    if japanese:
        pdfmetrics.registerFont(UnicodeCIDFont("HeiseiMin-W3"))
        pdfmetrics.registerFont(UnicodeCIDFont("HeiseiKakuGo-W5"))
    body_font = "HeiseiMin-W3" if japanese else "Helvetica"
    head_font = "HeiseiKakuGo-W5" if japanese else "Helvetica-Bold"
    wrap = "CJK" if japanese else "LTR"
    title = ParagraphStyle("t", fontName=head_font, fontSize=20, leading=26)
    head = ParagraphStyle("h", fontName=head_font, fontSize=13, leading=17, spaceAfter=4)
    left = ParagraphStyle("l", fontName=body_font, fontSize=10, leading=14.5, spaceAfter=7,
                          wordWrap=wrap)  # fmt: skip
    right = ParagraphStyle("r", fontName=body_font, fontSize=10, leading=15.5, spaceAfter=10,
                           wordWrap=wrap)  # fmt: skip
    width, height = A4
    canvas = Canvas(str(path), pagesize=A4)
    column = (width - 100 - 28) / 2

    def frame(x: float, top: float, items: list[tuple[str, ParagraphStyle]]) -> None:
        story: list[Flowable] = [Paragraph(texts[key], style) for key, style in items]
        Frame(x, top - 260, column, 260, leftPadding=0, rightPadding=0, topPadding=0,
              showBoundary=0).addFromList(story, canvas)  # fmt: skip

    Frame(50, height - 90, width - 100, 50, leftPadding=0, topPadding=0).addFromList(
        [Paragraph(texts["title"], title)], canvas
    )
    frame(50, height - 100, [("h1", head), ("l1", left), ("l2", left)])
    frame(78 + column, height - 107, [("h2", head), ("r1", right), ("r2", right)])
    canvas.drawImage(ImageReader(io.BytesIO(picture_png())), 50, height - 420, width - 100, 90)
    frame(50, height - 440, [("h3", head), ("l3", left)])
    frame(78 + column, height - 446, [("h4", head), ("r3", right)])
    canvas.save()
