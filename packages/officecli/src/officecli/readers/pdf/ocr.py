"""Which PDF pages need OCR, and reading them: render with pypdfium2, recognise with Tesseract."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from officecli.readers import ocr

if TYPE_CHECKING:
    from PIL.Image import Image

MIN_PICTURE_SHARE = 0.25  # of the page: a smaller picture is a logo or a photo, not a scan
MAX_TEXT_SHARE = 0.05  # text boxes over the pictures' area below this: the text layer is a stub
MIN_OUTLINE_SHAPES = 200  # vector shapes on a page with no text: text drawn as outlines
MAX_PAGE_PIXELS = (
    50_000_000  # render budget per page (300 dpi A3 is 35 MP); larger pages get fewer dpi
)


def needs_ocr(page: Any, mode: str) -> bool:
    """`always`: every page; `never`: none; `auto`: pages with no real text layer."""
    if mode != "auto":
        return mode == "always"
    area = float(page.width) * float(page.height) or 1.0
    text: float = sum(
        float(ch["x1"] - ch["x0"]) * float(ch["bottom"] - ch["top"])
        for ch in page.chars
        if not ch["text"].isspace()
    )
    pictures = min(area, sum(_clipped_area(img, page) for img in page.images))
    if pictures >= MIN_PICTURE_SHARE * area:
        return text < MAX_TEXT_SHARE * pictures
    return text == 0 and len(page.curves) + len(page.rects) >= MIN_OUTLINE_SHAPES


def _clipped_area(img: dict[str, Any], page: Any) -> float:
    width = min(float(img["x1"]), float(page.width)) - max(float(img["x0"]), 0.0)
    height = min(float(img["bottom"]), float(page.height)) - max(float(img["top"]), 0.0)
    return max(width, 0.0) * max(height, 0.0)


def _render(path: Path, numbers: list[int]) -> Iterator[tuple[Image, float]]:
    """Each page (1-based numbers) as a grayscale image and the factor from its pixels to
    points. pdfium is not thread-safe, so this runs on the caller's thread, one page ahead."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        for number in numbers:
            page = pdf[number - 1]
            width, height = page.get_size()
            scale = min(ocr.DPI / 72, (MAX_PAGE_PIXELS / max(width * height, 1.0)) ** 0.5)
            image = page.render(scale=scale, grayscale=True).to_pil()
            page.close()
            yield image, 1 / scale
    finally:
        pdf.close()


def ocr_pages(
    path: Path, numbers: list[int], lang: str, text: str, jobs: int
) -> dict[int, ocr.OcrText]:
    """OCR the given pages, `jobs` at a time. `lang` empty: guessed from `text` (the document's
    text layer elsewhere) or, with none, from the first page's script."""
    images = _render(path, numbers)
    first = next(images, None)
    if first is None:
        return {}
    tries = [lang] if lang else ocr.candidate_languages(text, first[0])

    def pages() -> Iterator[tuple[Image, float]]:
        yield first
        yield from images

    read = ocr.bounded_map(lambda item: ocr.recognise(item[0], tries, item[1]), pages(), jobs)
    return dict(zip(numbers, read, strict=True))
