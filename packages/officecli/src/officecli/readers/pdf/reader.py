"""PDF reader (pdfplumber): page markers, headings by font size, tables, columns, images."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentcli.main import check_interrupt
from officecli.readers import ocr
from officecli.readers.model import Block, Document, ReadOptions, count_chars
from officecli.readers.ooxml import escape_inline
from officecli.readers.pdf.budget import MAX_EXPANDED_BYTES, Drawing, check_render, measured
from officecli.readers.pdf.columns import Box, reading_order
from officecli.readers.pdf.layout import Line, join_lines, text_lines
from officecli.readers.pdf.ocr import (
    MAX_PICTURES,
    PageWork,
    covered_pictures,
    needs_ocr,
    ocr_pages,
    picture_regions,
)
from officecli.readers.pdf.tables import Bounds, Placed, borderless_tables
from officecli.readers.pdf.text import Glyphs, clean_cell, group_blocks, group_lines, page_text
from officecli.readers.safety import (
    BrokenFileError,
    EncryptedFileError,
    ExpansionBudget,
    UnsafeFileError,
)

PIXEL_FILTERS = {"FlateDecode", "ASCII85Decode", "ASCIIHexDecode", "LZWDecode", "RunLengthDecode"}
FRAME_LINES = 4  # lines in one ruled cell that make the ruling a frame, not a table
MARGIN = 0.1  # top and bottom share of the page where running headers live
MAX_PICTURE_BYTES = 64 * 1024 * 1024  # decoded pixels of one picture
HEADING_SIZE = 1.15  # a line this much larger than its page's body type is a heading
# On an OCR'd page sizes are estimated in steps of 1.41 from word boxes (a CJK line's boxes
# are taller than a Latin one's): one step is noise, two say heading.
OCR_HEADING_SIZE = 1.9


@dataclass
class PageContent:
    number: int
    lines: list[Line]
    tables: list[Placed]  # (bounds, rows)
    images: list[tuple[Bounds, str]]  # (bounds, asset name or "")
    height: float
    width: float
    body: float  # the page's commonest font size, table text included
    bold_body: bool  # most of the page's text is bold: weight tells no headings apart
    ocr_text: ocr.OcrText | None = None  # set when the page's text came from OCR
    picture_text: dict[int, str] = field(default_factory=dict)  # image index -> OCR'd text


def _running_key(text: str) -> str:
    return re.sub(r"\d+", "#", text.strip().lower())


def _image_asset(doc: Document, image: dict[str, Any]) -> str:
    """Save a picture when its bytes are a file format already (JPEG) or plain 8-bit pixels."""
    stream = image.get("stream")
    if stream is None:
        return ""
    try:
        filters = [str(f[0]).strip("/'") for f in stream.get_filters()]
        if filters and filters[-1] == "DCTDecode":
            return doc.add_asset("image", ".jpg", stream.get_rawdata())
        if filters and filters[-1] == "JPXDecode":
            return doc.add_asset("image", ".jp2", stream.get_rawdata())
        if set(filters) <= PIXEL_FILTERS and image.get("bits") == 8:
            # declared pixels too many: not decoded (decoding is measured against the budget)
            if _pixel_bytes(image) > MAX_PICTURE_BYTES:
                return ""
            return _png_asset(doc, image, stream.get_data())
    except UnsafeFileError:
        raise  # past the file's budget: the file is refused, not just the picture
    except Exception:  # noqa: BLE001 - a damaged picture stream must not lose the page's text
        return ""
    return ""


def _pixel_bytes(image: dict[str, Any]) -> int:
    """Bytes of plain 8-bit pixels of the picture's declared size and colour space."""
    space = str(image.get("colorspace", [""])[0]).strip("/'")
    channels = {"DeviceRGB": 3, "DeviceGray": 1, "DeviceCMYK": 4}.get(space, 0)
    width, height = (int(n) for n in image["srcsize"])
    return width * height * channels


def _png_asset(doc: Document, image: dict[str, Any], data: bytes) -> str:
    import io

    from PIL import Image

    space = str(image.get("colorspace", [""])[0]).strip("/'")
    mode = {"DeviceRGB": "RGB", "DeviceGray": "L", "DeviceCMYK": "CMYK"}.get(space)
    if mode is None:
        return ""
    width, height = (int(n) for n in image["srcsize"])
    if len(data) != width * height * len(mode):
        return ""  # predictors or packing we do not undo: better no picture than a wrong one
    picture = Image.frombytes(mode, (width, height), data)
    buf = io.BytesIO()
    picture.convert("RGB" if mode == "CMYK" else mode).save(buf, format="PNG")
    return doc.add_asset("image", ".png", buf.getvalue())


def _is_frame(cells: list[list[str | None]]) -> bool:
    """Ruling lines drawn round a layout, not a grid: a single column, or a cell holding a
    whole block of lines. Its text is left to the line reader and borderless detection."""
    if max((len(row) for row in cells), default=0) < 2:
        return True
    return any((cell or "").count("\n") >= FRAME_LINES - 1 for row in cells for cell in row)


def _cell_text(cell: str) -> str:
    """A ruled cell's wrapped lines joined like a paragraph's (no space inside CJK words)."""
    text = ""
    for line in cell.split("\n"):
        text = join_lines(text, line.strip())
    return escape_inline(text)


def _read_page(page: Any, number: int, doc: Document) -> PageContent:
    tables: list[Placed] = []
    boxes: list[Bounds] = []
    if page.edges:  # the default strategy needs ruling lines; without them it finds nothing
        for table in page.find_tables():
            cells = table.extract()
            if _is_frame(cells):
                continue
            rows = [[_cell_text(c or "") for c in row] for row in cells]
            rows = [r for r in rows if any(c.strip() for c in r)]
            if rows:
                tables.append((table.bbox, rows))
                boxes.append(table.bbox)
    chars = [
        ch
        for ch in page.chars
        if not any(
            x0 <= ch["x0"] <= x1 and top <= ch["top"] <= bottom for x0, top, x1, bottom in boxes
        )
    ]
    images = [(_bounds(img), _image_asset(doc, img)) for img in page.images]
    all_lines = text_lines(chars)
    borderless, lines = borderless_tables(all_lines)
    tables += borderless
    size = (float(page.height), float(page.width), _body_size(all_lines))
    bold = sum(len(line.text) for line in all_lines if line.bold)
    bold_body = bold * 2 > sum(len(line.text) for line in all_lines)
    return PageContent(number, lines, tables, images, *size, bold_body)


def _bounds(obj: dict[str, Any]) -> Bounds:
    return (float(obj["x0"]), float(obj["top"]), float(obj["x1"]), float(obj["bottom"]))


def _running_headers(pages: list[PageContent]) -> set[str]:
    if len(pages) < 2:
        return set()
    seen: Counter[str] = Counter()
    for page in pages:
        keys = {
            _running_key(line.text)
            for line in page.lines
            if line.top < page.height * MARGIN or line.bottom > page.height * (1 - MARGIN)
        }
        seen.update(keys)
    return {key for key, n in seen.items() if n >= 2 and n * 2 > len(pages)}


def _body_size(lines: list[Line]) -> float:
    sizes: Counter[float] = Counter()
    for line in lines:
        sizes[line.size] += len(line.text)
    return sizes.most_common(1)[0][0] if sizes else 0.0


def _heading_levels(pages: list[PageContent]) -> tuple[dict[tuple[int, float], int], int]:
    """(page, font size) -> heading level 1..3 for sizes clearly above that page's body
    size; and the level of bold headings in body type, one below the smallest size."""
    bigger: dict[tuple[int, float], float] = {}
    for page in pages:
        body = page.body * (OCR_HEADING_SIZE if page.ocr_text else HEADING_SIZE)
        for line in page.lines:
            if line.size >= body:
                bigger[(page.number, line.size)] = line.size
    ranks = sorted(set(bigger.values()), reverse=True)
    levels = {key: min(ranks.index(size) + 1, 3) for key, size in bigger.items()}
    return levels, min(max(len(ranks) + 1, 2), 3)


def _is_running(line: Line, page: PageContent, running: set[str]) -> bool:
    in_margin = line.top < page.height * MARGIN or line.bottom > page.height * (1 - MARGIN)
    return in_margin and _running_key(line.text) in running


def _page_blocks(
    doc: Document,
    page: PageContent,
    running: set[str],
    levels: tuple[dict[tuple[int, float], int], int],
) -> None:
    """Page marker, then paragraphs, headings and list items, tables and pictures."""
    read = f" (ocr, confidence {page.ocr_text.confidence:.2f})" if page.ocr_text else ""
    doc.add(Block("marker", f"page {page.number}{read}"))
    lines: list[Line] = []
    for line in page.lines:
        if _is_running(line, page, running):
            doc.raw_chars -= count_chars(line.text)
        else:
            lines.append(line)
    by_size, bold_level = levels
    sizes = {size: level for (number, size), level in by_size.items() if number == page.number}
    glyphs = Glyphs()
    boxes = [
        Box(
            top,
            bottom,
            x0,
            x1,
            [Block("table", rows=[[clean_cell(c, glyphs) for c in r] for r in rows])],
        )
        for (x0, top, x1, bottom), rows in page.tables
    ]
    for index, ((x0, top, x1, bottom), asset) in enumerate(page.images):
        picture = [Block("image", f"picture on page {page.number}", asset=asset)]
        if page.picture_text.get(index):
            picture.append(Block("quote", escape_inline(page.picture_text[index])))
        boxes.append(Box(top, bottom, x0, x1, picture))
    measure = page_text(lines)
    run: list[Line] = []
    for item in [*reading_order(lines, boxes, page.width), None]:
        if isinstance(item, Line):
            run.append(item)
            continue
        groups = group_lines(run, sizes, 0 if page.bold_body else bold_level, measure)
        for _top, block in group_blocks(groups, glyphs):
            doc.add(block)
        run = []
        if item is not None:
            for block in item.blocks:
                doc.add(block)
    # bullets became list markers and meaningless glyphs were dropped (and are reported)
    doc.raw_chars -= glyphs.markers + glyphs.dropped
    doc.dropped_glyphs += glyphs.dropped


def read_pdf(path: Path, options: ReadOptions) -> Document:
    import pdfplumber
    from pdfminer.pdfdocument import PDFPasswordIncorrect
    from pdfminer.pdfparser import PDFSyntaxError
    from pdfplumber.utils.exceptions import PdfminerException

    doc = Document()
    budget = ExpansionBudget(path.name, MAX_EXPANDED_BYTES)  # every stream of the file
    drawing = Drawing(path.name, options.pdf_limits)  # everything its pages draw
    try:
        # the whole life of the document is measured: closing it may read the page tree
        with measured(budget, "when the document opens"):
            pdf = pdfplumber.open(path)
            with pdf:
                doc.counts["pages"] = len(pdf.pages)
                pages, work = _read_pages(pdf, (budget, drawing), options, doc)
    except PdfminerException as exc:
        inner = exc.args[0] if exc.args else exc
        if isinstance(inner, UnsafeFileError):
            raise inner from None
        if isinstance(inner, PDFPasswordIncorrect):
            raise EncryptedFileError(f"{path.name}: the PDF is password-protected") from None
        raise BrokenFileError(f"{path.name}: not a readable PDF ({type(inner).__name__})") from None
    except (PDFSyntaxError, PDFPasswordIncorrect) as exc:
        raise BrokenFileError(f"{path.name}: not a readable PDF ({type(exc).__name__})") from None
    if budget.refused:  # a refusal something on the way caught and ignored
        raise UnsafeFileError(budget.refused)
    if drawing.refusal is not None:
        raise drawing.refusal
    if work:
        _apply_ocr(path, pages, work, options, doc)
    running = set() if options.keep_running_headers else _running_headers(pages)
    levels = _heading_levels(pages)
    for page in pages:
        _page_blocks(doc, page, running, levels)
    if running:
        doc.notes.append(f"{len(running)} running header/footer line(s) removed")
    return doc


def _read_pages(
    pdf: Any, budgets: tuple[ExpansionBudget, Drawing], options: ReadOptions, doc: Document
) -> tuple[list[PageContent], list[PageWork]]:
    """Every page's content, and what of each page to OCR; each page's decoding (and, for
    OCR, rendering) measured against the file's budget, and its drawing against the file's
    limits."""
    budget, drawing = budgets
    pages: list[PageContent] = []
    work: list[PageWork] = []
    pictures = 0
    for number, pdf_page in enumerate(pdf.pages, 1):
        check_interrupt()  # a page takes seconds at most: a signal is answered within one
        drawing.start_page(number)
        with measured(budget, f"while page {number} is read", drawing):
            doc.raw_chars += sum(count_chars(ch["text"]) for ch in pdf_page.chars)
            pages.append(_read_page(pdf_page, number, doc))
            item = _ocr_work(pdf_page, number, options)
            if pictures + len(item.pictures) > MAX_PICTURES:
                doc.notes.append(f"pictures past the first {MAX_PICTURES} were not read with OCR")
                item.pictures = item.pictures[: max(MAX_PICTURES - pictures, 0)]
            pictures += len(item.pictures)
            if item.whole or item.pictures:
                if ocr.available():  # else nothing is rendered
                    check_render(pdf_page.page_obj, budget, f"when page {number} is rendered")
                work.append(item)
            pdf_page.close()
    return pages, work


def _ocr_work(pdf_page: Any, number: int, options: ReadOptions) -> PageWork:
    """The page whole when it needs it; on a page with a real text layer, its pictures on
    their own."""
    item = PageWork(number, (float(pdf_page.width), float(pdf_page.height)))
    if options.ocr == "never":
        return item
    scan = needs_ocr(pdf_page, "auto")
    item.whole = scan or options.ocr == "always"
    if not scan:
        item.pictures = picture_regions(pdf_page, options.ocr_images)
        if item.whole:  # pictures with text drawn over them keep the text layer's
            item.covered = covered_pictures(pdf_page)
    return item


def _inside(line: Line, boxes: list[Bounds]) -> bool:
    """The line's middle is in one of the boxes."""
    x, y = (line.x0 + line.words[-1][1]) / 2, (line.top + line.bottom) / 2
    return any(x0 <= x <= x1 and top <= y <= bottom for x0, top, x1, bottom in boxes)


def _apply_ocr(
    path: Path, pages: list[PageContent], work: list[PageWork], options: ReadOptions, doc: Document
) -> None:
    """Replace the text of pages read whole with what OCR reads on them (same layout code
    after); put each picture's text under it."""
    if not ocr.available():
        doc.notes.append(ocr.OCR_UNAVAILABLE)
        return
    text = "".join(line.text for page in pages for line in page.lines)
    read = ocr_pages(path, work, options.ocr_lang, text, options.ocr_jobs)
    for number, reading in sorted(read.items()):
        page = pages[number - 1]
        page.picture_text = reading.pictures
        if reading.pictures:
            doc.counts["ocr_pictures"] = doc.counts.get("ocr_pictures", 0) + len(reading.pictures)
        result = reading.page
        if result is None:
            continue
        covered = next(w.covered for w in work if w.number == number)
        read_lines = [line for line in result.lines if not _inside(line, covered)]
        kept = [line for line in page.lines if _inside(line, covered)]  # the text layer's
        tables, lines = borderless_tables(read_lines)
        page.lines = sorted(lines + kept, key=lambda line: line.top)
        page.tables = page.tables + tables
        page.body, page.ocr_text = _body_size(result.lines), result
        doc.ocr_pages.append(number)
        if result.low_confidence:
            doc.warnings.append(
                (
                    "loss.ocr_low_confidence",
                    f"page {number}: {result.low_confidence} of {result.words} OCR'd words "
                    f"read with confidence under {ocr.LOW_CONFIDENCE}%",
                    "check those words against the page; a cleaner scan (300 dpi) reads better",
                )
            )
