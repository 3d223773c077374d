"""Scanned pages made in the tests: text drawn with Pillow into an image, wrapped in a PDF."""

from __future__ import annotations

import difflib
import random
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT = Path("/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf")  # Debian's fonts-ipafont-gothic
ENGLISH = [
    "Quarterly report for the logistics team",
    "The new depot opened in March and handled",
    "twelve thousand parcels in its first month.",
]
JAPANESE = [
    "新物流センターが本格稼働しました。",
    "在宅勤務は事務職を対象に週二日まで",
    "利用できます。申請は上長の承認が必要です。",
]
VERTICAL = ["物流センターは三月に", "開所し、初月に一万二", "千個の荷物を扱った。"]


def scanned_page(lines: list[str], noisy: bool = False, size: int = 40) -> Image.Image:
    """A 6 x 4 inch page at 300 dpi; `noisy` adds speckles and turns it by 2 degrees, as a
    photographed or badly fed sheet looks."""
    page = Image.new("L", (1800, 1200), 255)
    draw = ImageDraw.Draw(page)
    font = ImageFont.truetype(str(FONT), size)
    for index, line in enumerate(lines):
        draw.text((120, 120 + index * int(size * 1.8)), line, font=font, fill=0)
    if not noisy:
        return page
    rnd = random.Random(7)  # the same speckles every run
    pixels = page.load()
    assert pixels is not None
    for _ in range(25_000):
        pixels[rnd.randrange(page.width), rnd.randrange(page.height)] = rnd.choice((0, 128, 200))
    return page.rotate(2, expand=True, fillcolor=255, resample=Image.Resampling.BICUBIC)


def vertical_page(columns: list[str], size: int = 60) -> Image.Image:
    """Japanese written top to bottom, columns from right to left."""
    page = Image.new("L", (1000, 1400), 255)
    draw = ImageDraw.Draw(page)
    font = ImageFont.truetype(str(FONT), size)
    for index, column in enumerate(columns):
        for row, ch in enumerate(column):
            draw.text((800 - index * 120, 150 + row * 75), ch, font=font, fill=0)
    return page


def table_page(rows: list[list[str]], size: int = 40) -> Image.Image:
    """A table printed without ruling lines: cells in aligned columns."""
    page = Image.new("L", (1800, 1200), 255)
    draw = ImageDraw.Draw(page)
    font = ImageFont.truetype(str(FONT), size)
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            draw.text((150 + c * 450, 150 + r * 2 * size), cell, font=font, fill=0)
    return page


def save_pdf(path: Path, *pages: Image.Image) -> Path:
    pages[0].save(path, "PDF", resolution=300, save_all=True, append_images=list(pages[1:]))
    return path


def recall(expected: list[str], markdown: str) -> float:
    """Share of the expected characters (spaces aside) found in order in the Markdown."""
    want = "".join("".join(expected).split())
    got = "".join(markdown.split())
    matcher = difflib.SequenceMatcher(None, want, got, autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks()) / len(want)
