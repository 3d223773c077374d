"""Pictures on PDF pages that have a text layer, with a real Tesseract: in `--ocr auto` a
large picture no text is drawn over is read on its own and its text goes under it, in its
place; `--ocr-images` reads every picture, as for Office files; `--ocr always` keeps the
words around the pictures and never makes a heading of a picture's text."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest
from officecli_testkit.scans import FONT, recall
from PIL import Image, ImageDraw, ImageFont

from officecli.doc2md import Options, convert
from officecli.readers import ocr

pytestmark = pytest.mark.skipif(
    not (ocr.available() and "jpn" in ocr.languages() and FONT.is_file())
    and not os.environ.get("CI"),
    reason="needs tesseract-ocr, tesseract-ocr-jpn and fonts-ipafont-gothic (.ci/run installs them)",
)

TITLE = "Quarterly logistics report"
INTRO = "The depot handled more parcels this quarter than in any quarter before."
CAPTION = "Figure 1. Revenue by quarter, in thousands of pounds."
BETWEEN = "Customer satisfaction rose as well, as the second chart shows."
CAPTION_2 = "Figure 2. 顧客満足度の推移"
LAST = "The logo below is the depot's own."
CHART = ["Chart 1: Revenue Growth", "Q1 120 Q2 135 Q3 150"]
SATISFACTION = ["顧客満足度 92%"]
LOGO = ["LEEDS DEPOT"]
OVER = "Text drawn over a picture is the text layer's."


def _png(lines: list[str], size: tuple[int, int], font_size: int, noise: bool = False) -> Any:
    from reportlab.lib.utils import ImageReader

    image = Image.new("RGB", size, (255, 255, 255))
    draw = ImageDraw.Draw(image)
    if noise:  # a photograph: shades, no letters
        for x in range(0, size[0], 8):
            draw.rectangle((x, 0, x + 7, size[1]), fill=((x * 7) % 255, (x * 3) % 255, 90))
    font = ImageFont.truetype(str(FONT), font_size)
    for i, line in enumerate(lines):
        draw.text((40, 30 + i * int(font_size * 1.6)), line, font=font, fill=(0, 0, 0))
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return ImageReader(io.BytesIO(buf.getvalue()))


def _report(path: Path) -> None:
    """A text page: a title, a chart with text, a caption, a Japanese chart, a photograph,
    a small logo with text, and text drawn over a background picture."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen.canvas import Canvas

    pdfmetrics.registerFont(UnicodeCIDFont("HeiseiMin-W3"))
    canvas = Canvas(str(path), pagesize=A4)
    height = A4[1]
    canvas.setFont("Helvetica-Bold", 18)
    canvas.drawString(60, height - 70, TITLE)
    canvas.setFont("Helvetica", 10.5)
    canvas.drawString(60, height - 100, INTRO)
    canvas.drawImage(_png(CHART, (1200, 300), 64), 60, height - 250, 360, 90)
    canvas.drawString(60, height - 268, CAPTION)  # close under the picture
    canvas.drawString(60, height - 300, BETWEEN)
    canvas.drawImage(_png(SATISFACTION, (900, 180), 72), 60, height - 400, 240, 48)
    canvas.setFont("HeiseiMin-W3", 10.5)
    canvas.drawString(60, height - 418, CAPTION_2)
    canvas.setFont("Helvetica", 10.5)
    canvas.drawString(60, height - 460, LAST)
    canvas.drawImage(_png(LOGO, (500, 90), 56), 60, height - 500, 110, 20)  # under 2% of the page
    canvas.drawImage(_png([], (600, 300), 40, noise=True), 60, height - 620, 200, 100)
    canvas.drawImage(_png([], (600, 120), 40, noise=True), 60, height - 720, 300, 60)
    canvas.drawString(80, height - 690, OVER)
    canvas.showPage()
    canvas.save()


def _outline(path: Path, **options: Any) -> list[str]:
    """The Markdown's lines, blank lines and the page marker left out."""
    text = convert(path, Options(**options)).markdown
    return [line for line in text.splitlines() if line and not line.startswith("<!--")]


def _picture(n: int) -> str:
    return f"![picture on page 1](report_assets/image{n}.png)"


def _japanese(quote: str) -> bool:
    """The Japanese picture's text, read well enough (a character may be misread)."""
    return quote.startswith("> ") and recall(SATISFACTION, quote[2:]) >= 0.8


def test_auto_reads_large_pictures_on_text_pages_in_their_place(tmp_path: Path) -> None:
    _report(tmp_path / "report.pdf")
    lines = _outline(tmp_path / "report.pdf")
    assert _japanese(lines[8])
    assert lines[:8] + lines[9:] == [
        f"# {TITLE}",
        INTRO,
        _picture(1),
        f"> {CHART[0]}\\",
        f"> {CHART[1]}",
        CAPTION,
        BETWEEN,
        _picture(2),
        CAPTION_2,
        LAST,
        _picture(3),  # the small logo is read only with --ocr-images
        _picture(4),  # a photograph: no text under it
        _picture(5),  # text is drawn over it: not read
        OVER,
    ]
    result = convert(tmp_path / "report.pdf")
    assert (result.front_matter["ocr_pictures"], result.front_matter["ocr"]) == (2, True)
    never = _outline(tmp_path / "report.pdf", ocr="never")
    assert not [line for line in never if line.startswith(">")]


def test_ocr_images_reads_every_picture_as_for_office_files(tmp_path: Path) -> None:
    _report(tmp_path / "report.pdf")
    lines = _outline(tmp_path / "report.pdf", ocr_images=True)
    quotes = [line for line in lines if line.startswith(">")]
    assert quotes[:2] + quotes[3:] == [f"> {CHART[0]}\\", f"> {CHART[1]}", f"> {LOGO[0]}"]
    assert lines[lines.index(_picture(3)) + 1] == f"> {LOGO[0]}"


def test_always_keeps_the_words_around_pictures_and_makes_no_heading_of_theirs(
    tmp_path: Path,
) -> None:
    _report(tmp_path / "report.pdf")
    lines = _outline(tmp_path / "report.pdf", ocr="always")
    assert [line for line in lines if line.startswith("#")] == [f"# {TITLE}"]
    for words in (INTRO, CAPTION, BETWEEN, LAST, OVER):  # OVER: the text layer's, kept
        assert words in lines
    quotes = [line for line in lines if line.startswith(">")]
    assert quotes[:2] == [f"> {CHART[0]}\\", f"> {CHART[1]}"] and _japanese(quotes[2])
    assert len(quotes) == 3
    assert lines.index(quotes[0]) == lines.index(_picture(1)) + 1
    assert lines.index(quotes[2]) == lines.index(_picture(2)) + 1
