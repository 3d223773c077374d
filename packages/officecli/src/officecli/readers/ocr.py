"""OCR with Tesseract: a page image to lines of word boxes in PDF points.

The engine and its language data are installed packages (Debian's tesseract-ocr, -jpn,
-jpn-vert); nothing is downloaded. The lines it gives are the PDF reader's own `Line`s, so
OCR'd pages go through the same reading order, paragraph, heading and table code as text.
Images are read in runs (`tesseract.py`: one process, many images); pytesseract only lists
the installed languages and detects a script.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, TypeVar, cast

from officecli.readers.ocr_engine import INSTALL_HINT, OCR_UNAVAILABLE

if TYPE_CHECKING:
    from concurrent.futures import Future

    from PIL.Image import Image

    from officecli.readers import tesseract
    from officecli.readers.pdf.layout import Line

DPI = 300
LOW_CONFIDENCE = 60  # Tesseract's word confidence (0-100) under which a word is doubtful
CONFIDENT = 0.8  # a reading this sure (mean word confidence) is kept without trying others
VERTICAL = "vertical"  # the try that reads Japanese columns (jpn_vert, one column per line)
JOIN_GAP = 3.0  # line heights: CJK boxes closer than this are one word (Tesseract boxes are loose)
CJK_SCRIPTS = {"Japanese", "Han", "Hiragana", "Katakana"}

__all__ = [
    "INSTALL_HINT",
    "OCR_UNAVAILABLE",
    "OcrText",
    "available",
    "recognise",
]
T = TypeVar("T")
R = TypeVar("R")


@dataclass
class OcrText:
    """What Tesseract read on one image: lines in reading order and how sure it was."""

    lines: list[Line] = field(default_factory=list)
    words: int = 0
    low_confidence: int = 0
    confidence: float = 0.0  # mean word confidence, 0..1
    vertical: bool = False


@lru_cache(maxsize=1)
def languages() -> frozenset[str]:
    """Installed Tesseract languages; empty when the engine is missing."""
    try:
        import pytesseract

        return frozenset(pytesseract.get_languages(config=""))
    except (ImportError, OSError, RuntimeError) as exc:  # TesseractNotFoundError is an OSError
        del exc
        return frozenset()


def available() -> bool:
    return "eng" in languages() or "jpn" in languages()


def is_cjk(ch: str) -> bool:
    name = unicodedata.name(ch, "")
    return name.startswith(("CJK", "HIRAGANA", "KATAKANA", "FULLWIDTH", "IDEOGRAPHIC"))


def candidate_languages(text: str, image: Image | None = None) -> list[str]:
    """Languages to try, best guess first: jpn+eng when the document shows CJK text elsewhere
    (or, with no text at all, Tesseract's script detection says so), else eng, then jpn+eng
    for a page English reads badly. Only installed languages are named."""
    have = languages()
    japanese = "+".join(lang for lang in ("jpn", "eng") if lang in have)
    english = "eng" if "eng" in have else japanese
    if text.strip():
        return [japanese if any(is_cjk(ch) for ch in text) else english]
    if _script_is_cjk(image):
        return [japanese]
    return list(dict.fromkeys([english, japanese]))


def _script_is_cjk(image: Image | None) -> bool:
    """Tesseract's script detection (osd) on a page with no text layer to guess from."""
    if image is None or "osd" not in languages():
        return False
    import pytesseract

    try:
        osd = pytesseract.image_to_osd(image, output_type=pytesseract.Output.DICT, timeout=60)
    except (pytesseract.TesseractError, RuntimeError):
        return False  # too little text to tell the script
    return str(osd.get("script", "")) in CJK_SCRIPTS


def check_language(lang: str) -> str | None:
    """The first language of `lang` (e.g. jpn+eng) that is not installed, if any."""
    have = languages()
    return next((part for part in lang.split("+") if part not in have), None)


def recognise(
    images: list[Image], languages_to_try: list[str], scales: list[float], picture: bool = False
) -> list[OcrText]:
    """OCR images, each language tried in turn on those not yet read with confidence, all of
    them by one Tesseract process per language. A Japanese page still read badly is tried as
    vertical text (jpn_vert); the most confident reading of each image wins. A `picture` (a
    figure's text, not a page) is not tried as vertical text, and a reading that could be
    kept ends its tries."""
    best = [OcrText() for _ in images]
    tries = list(languages_to_try)
    vertical = any("jpn" in lang.split("+") for lang in tries) and "jpn_vert" in languages()
    if vertical and not picture:
        tries.append(VERTICAL)
    enough = PICTURE_CONFIDENCE + 0.15 if picture else CONFIDENT
    for lang in tries:
        todo = [i for i, reading in enumerate(best) if reading.confidence < enough]
        if not todo:
            break
        readings = _read_all(
            [images[i] for i in todo],
            "jpn_vert" if lang == VERTICAL else lang,
            [scales[i] for i in todo],
            lang == VERTICAL,
        )
        for i, reading in zip(todo, readings, strict=True):
            if reading.confidence > best[i].confidence:
                best[i] = reading
    return best


def _read_all(images: list[Image], lang: str, scales: list[float], vertical: bool) -> list[OcrText]:
    from officecli.readers import tesseract

    read = tesseract.read_words(images, lang, 5 if vertical else 3)
    return [_reading(words, scale, vertical) for words, scale in zip(read, scales, strict=True)]


def _reading(words: list[tesseract.Word], scale: float, vertical: bool) -> OcrText:
    groups: dict[tuple[int, int, int], list[tuple[float, float, float, float, str]]] = {}
    confidences: list[float] = []
    for word in words:
        text, conf = word.text.strip(), float(word.confidence)
        if not text or conf < 0:
            continue
        confidences.append(conf)
        x0, top = word.left * scale, word.top * scale
        x1, bottom = x0 + word.width * scale, top + word.height * scale
        key = (word.block, word.paragraph, word.line)
        groups.setdefault(key, []).append((x0, top, x1, bottom, text))
    if vertical:
        lines = _vertical_order(list(groups.values()))
    else:
        lines = sorted(map(_line, groups.values()), key=lambda line: (line.top, line.words[0][0]))
    return OcrText(
        lines,
        len(confidences),
        sum(1 for c in confidences if c < LOW_CONFIDENCE),
        round(sum(confidences) / len(confidences) / 100, 2) if confidences else 0.0,
        vertical,
    )


def _line(boxes: list[tuple[float, float, float, float, str]]) -> Line:
    """One OCR line; boxes closer than JOIN_GAP with CJK at the seam become one word."""
    from officecli.readers.pdf.layout import Line

    boxes.sort(key=lambda b: b[0])
    top = min(b[1] for b in boxes)
    bottom = max(b[3] for b in boxes)
    height = bottom - top
    words: list[tuple[float, float, str]] = []
    for x0, _top, x1, _bottom, text in boxes:
        if words:
            px0, px1, ptext = words[-1]
            seam_cjk = is_cjk(ptext[-1]) or is_cjk(text[0])
            if seam_cjk and x0 - px1 < JOIN_GAP * height:
                words[-1] = (px0, x1, ptext + text)
                continue
        words.append((x0, x1, text))
    heights = sorted(b[3] - b[1] for b in boxes)
    return Line(words, top, bottom, _font_size(heights[len(heights) // 2]))


def _font_size(box_height: float) -> float:
    """A font size from a median word box height, in half-octave steps. Box heights of one font
    differ by ~20% between Latin (x-height words) and CJK glyphs; the page reader would take that
    for a heading level, so sizes are only told apart when they differ by 40% or more."""
    import math

    return round(2 ** (round(math.log2(max(box_height, 1.0)) * 2) / 2), 1)


def _vertical_order(columns: list[list[tuple[float, float, float, float, str]]]) -> list[Line]:
    """Vertical Japanese is read column by column, right to left, each top to bottom. The page
    reader orders lines by their top, so each column becomes a line one line-height below the
    previous one, all of one size (its geometry says nothing useful to a horizontal layout)."""
    from officecli.readers.pdf.layout import Line

    out: list[Line] = []
    ordered = sorted(columns, key=lambda boxes: -max(b[2] for b in boxes))
    top = min((b[1] for boxes in columns for b in boxes), default=0.0)
    size = max((_font_size(b[2] - b[0]) for boxes in columns for b in boxes), default=10.0)
    for boxes in ordered:
        text = "".join(b[4] for b in sorted(boxes, key=lambda b: b[1]))
        out.append(Line([(0.0, size * len(text), text)], top, top + size, size))
        top += size * 1.2
    return out


SMALL_PICTURE = 300  # pixels high: smaller pictures are enlarged (Tesseract wants ~30 px letters)
MARGIN = 16  # white pixels around a picture: text touching the edge is misread without them
PICTURE_CONFIDENCE = 0.6  # a picture read less surely than this holds no text (a photo)


BLANK_RANGE = 8  # gray levels: a picture whose shades differ by no more is blank (no text)
EDGE = 2  # pixels of a picture's edge left out of that test
PICTURES_PER_RUN = 16  # images one Tesseract process reads, its language model loaded once
PIXELS_PER_RUN = 16_000_000  # and about this many pixels of them at most, held until it runs


def prepared(picture: Image) -> Image | None:
    """A picture (grayscale) as Tesseract reads it best: large enough, with a white margin;
    None for a blank picture (one shade), which holds no text to read."""
    from PIL import Image as PIL
    from PIL import ImageOps

    if _blank(picture):
        return None
    if picture.height < SMALL_PICTURE:
        factor = min(2.0, SMALL_PICTURE / max(picture.height, 1))
        size = (round(picture.width * factor), round(picture.height * factor))
        picture = picture.resize(size, PIL.Resampling.LANCZOS)
    return ImageOps.expand(picture, border=MARGIN, fill=255)


def _blank(picture: Image) -> bool:
    """One shade inside an edge of EDGE pixels (where a rendered picture blends with the page)."""
    inner = picture.crop((EDGE, EDGE, picture.width - EDGE, picture.height - EDGE))
    if inner.width <= 0 or inner.height <= 0:
        return False
    darkest, lightest = cast("tuple[int, int]", inner.getextrema())  # one band: grayscale
    return lightest - darkest <= BLANK_RANGE


def runs(
    items: Iterable[T], image: Callable[[T], Image], alone: Callable[[T], bool]
) -> Iterator[list[T]]:
    """Items grouped into Tesseract runs, in order: up to PICTURES_PER_RUN images and about
    PIXELS_PER_RUN pixels a run; an item `alone` says so of (a page read whole) is a run of
    its own, so pages are still read in parallel."""
    run: list[T] = []
    pixels = 0
    for item in items:
        if alone(item):
            if run:
                yield run
            yield [item]
            run, pixels = [], 0
            continue
        run.append(item)
        pixels += image(item).width * image(item).height
        if len(run) >= PICTURES_PER_RUN or pixels >= PIXELS_PER_RUN:
            yield run
            run, pixels = [], 0
    if run:
        yield run


def picture_text(reading: OcrText) -> str:
    """The text OCR read in a picture, a line of the picture a line; "" for a reading too
    unsure to be text (a photograph, a texture)."""
    if reading.confidence < PICTURE_CONFIDENCE:
        return ""
    return "\n".join(line.text for line in reading.lines)


def bounded_map(work: Callable[[T], R], items: Iterable[T], jobs: int) -> Iterator[R]:
    """work(item) for each item in order, `jobs` at a time in threads (Tesseract runs as a
    subprocess, so threads run in parallel); at most 2 x jobs items are held at once."""
    jobs = max(1, jobs)
    if jobs == 1:
        yield from map(work, items)
        return
    from concurrent.futures import ThreadPoolExecutor

    pending: list[Future[R]] = []
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for item in items:
            pending.append(pool.submit(work, item))
            if len(pending) >= 2 * jobs:
                yield pending.pop(0).result()
        for future in pending:
            yield future.result()
