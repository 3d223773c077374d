"""What of a PDF needs OCR, and reading it: render with pypdfium2, recognise with Tesseract.

A page without a real text layer (a scan) is read whole. On a page with one, each picture
large enough (with --ocr-images, any picture) that no text is drawn over is read on its own:
its text goes under the picture, in the picture's place in the reading order, never into
the page's headings. `--ocr always` reads such a page whole too, with those pictures
painted out first, so their text is not mixed into the page's lines.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from officecli.readers import ocr

if TYPE_CHECKING:
    from PIL.Image import Image

    from officecli.readers.pdf.tables import Bounds

MIN_PICTURE_SHARE = 0.25  # of the page: a smaller picture is a logo or a photo, not a scan
MAX_TEXT_SHARE = 0.05  # text boxes over the pictures' area below this: the text layer is a stub
MIN_OUTLINE_SHAPES = 200  # vector shapes on a page with no text: text drawn as outlines
MAX_PAGE_PIXELS = (
    50_000_000  # render budget per page (300 dpi A3 is 35 MP); larger pages get fewer dpi
)
OCR_PICTURE_SHARE = 0.02  # of the page: a picture this large on a text page is read (auto)
MIN_PICTURE_SIDE = 12.0  # points: with --ocr-images, a smaller picture is a rule or a dot
MAX_PICTURES = 500  # pictures of one document read on their own; the rest are noted


@dataclass
class PageWork:
    """What to read on one page: the whole page, and pictures on their own."""

    number: int
    size: tuple[float, float]  # the page's width and height in points
    whole: bool = False
    pictures: list[tuple[int, Bounds]] = field(default_factory=list)  # (image index, bounds)
    covered: list[Bounds] = field(default_factory=list)  # pictures with text drawn over them


@dataclass
class PageReading:
    page: ocr.OcrText | None = None
    pictures: dict[int, str] = field(default_factory=dict)  # image index -> its text


def picture_regions(page: Any, every: bool) -> list[tuple[int, Bounds]]:
    """(index in page.images, bounds) of the pictures to read on their own: large enough
    (with `every`, any but a rule or a dot), with no text drawn over them."""
    width, height = float(page.width), float(page.height)
    found: list[tuple[int, Bounds]] = []
    for index, img in enumerate(page.images):
        x0, top = max(float(img["x0"]), 0.0), max(float(img["top"]), 0.0)
        x1, bottom = min(float(img["x1"]), width), min(float(img["bottom"]), height)
        w, h = x1 - x0, bottom - top
        if w <= 0 or h <= 0:
            continue
        large = (
            min(w, h) >= MIN_PICTURE_SIDE if every else w * h >= OCR_PICTURE_SHARE * width * height
        )
        if large and _text_over(page, (x0, top, x1, bottom)) < MAX_TEXT_SHARE * w * h:
            found.append((index, (x0, top, x1, bottom)))
    return found


def covered_pictures(page: Any) -> list[Bounds]:
    """Pictures with text drawn over them: where a page read whole keeps its text layer
    (OCR misses words over a busy picture and reads its texture as words)."""
    boxes = []
    for img in page.images:
        box = (float(img["x0"]), float(img["top"]), float(img["x1"]), float(img["bottom"]))
        if _text_over(page, box) > 0:
            boxes.append(box)
    return boxes


def _text_over(page: Any, box: Bounds) -> float:
    x0, top, x1, bottom = box
    return sum(
        float(ch["x1"] - ch["x0"]) * float(ch["bottom"] - ch["top"])
        for ch in page.chars
        if not ch["text"].isspace()
        and x0 <= (ch["x0"] + ch["x1"]) / 2 <= x1
        and top <= (ch["top"] + ch["bottom"]) / 2 <= bottom
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


Job = tuple[int, int, "Image", float]  # (page number, picture index or -1, image, scale)


def _jobs(path: Path, work: list[PageWork]) -> Iterator[Job]:
    """What Tesseract reads, rendered by pdfium in grayscale at 300 dpi (fewer for a huge
    page): a page read whole with its pictures cut out first and then painted white; on a
    page with a text layer, only its pictures, each rendered alone. A blank picture is left
    out (nothing to read). pdfium is not
    thread-safe, so this runs on the caller's thread, one image ahead of the readers."""
    import pypdfium2 as pdfium
    from PIL import ImageDraw

    pdf = pdfium.PdfDocument(str(path))
    try:
        for item in work:
            page = pdf[item.number - 1]
            width, height = page.get_size()
            scale = min(ocr.DPI / 72, (MAX_PAGE_PIXELS / max(width * height, 1.0)) ** 0.5)
            fx, fy = width / item.size[0], height / item.size[1]  # pdfplumber's points to pdfium's
            if not item.whole:
                for index, (x0, top, x1, bottom) in item.pictures:
                    crop = (
                        x0 * fx,
                        (item.size[1] - bottom) * fy,
                        (item.size[0] - x1) * fx,
                        top * fy,
                    )
                    image = page.render(scale=scale, grayscale=True, crop=crop).to_pil()
                    if (picture := ocr.prepared(image)) is not None:
                        yield item.number, index, picture, 1 / scale
                page.close()
                continue
            image = page.render(scale=scale, grayscale=True).to_pil()
            page.close()
            px, py = image.width / item.size[0], image.height / item.size[1]
            for index, (x0, top, x1, bottom) in item.pictures:
                box = (round(x0 * px), round(top * py), round(x1 * px), round(bottom * py))
                if (picture := ocr.prepared(image.crop(box))) is not None:
                    yield item.number, index, picture, 1 / scale
                ImageDraw.Draw(image).rectangle(box, fill=255)
            yield item.number, -1, image, 1 / scale
    finally:
        pdf.close()


def ocr_pages(
    path: Path, work: list[PageWork], lang: str, text: str, jobs: int
) -> dict[int, PageReading]:
    """Read the pages and pictures `work` names, `jobs` Tesseract runs at a time (a page
    whole, or pictures together: see `ocr.runs`). `lang` empty: guessed from `text` (the
    document's text layer elsewhere) or, with none, from the first image."""
    pending = _jobs(path, work)
    first = next(pending, None)
    if first is None:
        return {}
    tries = [lang] if lang else ocr.candidate_languages(text, first[2])
    # a picture's language need not be the page's: the other one is tried when unsure
    picture_tries = tries if lang else list(dict.fromkeys(tries + ocr.candidate_languages("")))

    def everything() -> Iterator[Job]:
        yield first
        yield from pending

    def read(run: list[Job]) -> list[tuple[int, int, ocr.OcrText]]:
        """A page read whole, or pictures read by one Tesseract process."""
        images, scales = [job[2] for job in run], [job[3] for job in run]
        if run[0][1] < 0:
            found = ocr.recognise(images, tries, scales)
        else:
            found = ocr.recognise(images, picture_tries, scales, picture=True)
        return [(job[0], job[1], result) for job, result in zip(run, found, strict=True)]

    batches = ocr.runs(everything(), lambda job: job[2], lambda job: job[1] < 0)
    read_runs = ocr.bounded_map(read, batches, jobs)
    readings: dict[int, PageReading] = {}
    for number, index, result in (reading for run in read_runs for reading in run):
        reading = readings.setdefault(number, PageReading())
        if index < 0:
            reading.page = result
        elif picture := ocr.picture_text(result):
            reading.pictures[index] = picture
    return readings
