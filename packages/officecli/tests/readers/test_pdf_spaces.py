"""Spaces in PDF text: a gap is a space when it is wider than the line's own letter spacing,
so a real space between Japanese words is kept and letter-spaced (tracked) Japanese next to
digits and symbols gets none."""

from __future__ import annotations

from pathlib import Path

from officecli_testkit.markdown_tree import outline

from officecli.doc2md.markdown import render
from officecli.readers.model import ReadOptions
from officecli.readers.pdf.reader import read_pdf

# (text, letter spacing in points, or None; a second piece drawn this many points after it)
LINES: list[tuple[str, float, tuple[str, float] | None]] = [
    ("株式会社みなと物流 御中", 0, None),  # a half-width space between two words
    ("株式会社みなと物流　御中", 0, None),  # a full-width one
    ("株式会社みなと物流 御中", 1.5, None),  # tracked, with a space
    ("週2日", 2, None),
    ("週2日勤務", 0, None),
    ("※重要○印", 2, None),
    ("第3条 支払条件", 2.5, None),
    ("合計 ¥12,800（税込）", 0, None),
    ("TEL 03-1234-5678", 1, None),
    ("週2日", 2, ("出社", 9.0)),  # a gap without a space character, wider than the tracking
    ("申請書", 0, ("PDF", 0.5)),  # a kerning-sized gap: no space
]
EXPECTED = [
    "株式会社みなと物流 御中",
    "株式会社みなと物流 御中",
    "株式会社みなと物流 御中",
    "週2日",
    "週2日勤務",
    "※重要○印",
    "第3条 支払条件",
    "合計 ¥12,800（税込）",
    "TEL 03-1234-5678",
    "週2日 出社",
    "申請書PDF",
]


def _spaced(path: Path) -> None:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen.canvas import Canvas

    pdfmetrics.registerFont(UnicodeCIDFont("HeiseiMin-W3"))
    canvas = Canvas(str(path))
    y = 800.0
    for text, tracking, after in LINES:
        pieces = [(50.0, text)]
        if after is not None:  # its own text object, the gap after the last letter's advance
            width = pdfmetrics.stringWidth(text, "HeiseiMin-W3", 10.5) + tracking * len(text)
            pieces.append((50.0 + width + after[1], after[0]))
        for x, piece in pieces:
            line = canvas.beginText(x, y)
            line.setFont("HeiseiMin-W3", 10.5)
            line.setCharSpace(tracking)
            line.textOut(piece)
            canvas.drawText(line)
        y -= 30
    canvas.save()


def test_spaces_follow_each_lines_own_letter_spacing(tmp_path: Path) -> None:
    _spaced(tmp_path / "spaced.pdf")
    doc = read_pdf(tmp_path / "spaced.pdf", ReadOptions())
    assert outline(render(doc, "x_assets")) == [("p", text) for text in EXPECTED]
