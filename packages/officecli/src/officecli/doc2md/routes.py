"""The other ways to a Document: through LibreOffice (--via-pdf, --recalc), and OCR of pictures.

Each is a step around a reader, not inside it: the readers stay one per format.
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from agentcli.tempdir import secure_tempdir
from officecli.readers import libreoffice, ocr
from officecli.readers.model import Block, Document, ReadOptions
from officecli.readers.pdf.ocr import MAX_PAGE_PIXELS

if TYPE_CHECKING:
    from PIL.Image import Image

Reader = Callable[[Path, ReadOptions], Document]
OCR_PICTURE_TYPES = {".png", ".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff", ".webp"}


def via_pdf(path: Path, options: ReadOptions) -> Document:
    """Print the document to PDF with LibreOffice and read that (layouts the direct readers
    cannot follow, such as text boxes laid out as columns)."""
    from officecli.readers.pdf.reader import read_pdf

    with secure_tempdir("doc2md-lo-") as work:
        doc = read_pdf(libreoffice.convert(path, "pdf", work), options)
    doc.notes.append(f"read through PDF: {path.suffix} printed with LibreOffice (--via-pdf)")
    return doc


def recalculated(path: Path, options: ReadOptions, doc: Document, read: Reader) -> Document:
    """With --recalc, a workbook whose formulas have no cached value is recalculated by
    LibreOffice and read again; without LibreOffice the formulas stay shown and reported."""
    missing = [w for w in doc.warnings if w[0] == "loss.formula_no_value"]
    if not missing:
        return doc
    if libreoffice.soffice() is None:
        doc.notes.append("--recalc: LibreOffice is not installed; " + libreoffice.INSTALL_HINT)
        return doc
    with secure_tempdir("doc2md-lo-") as work:
        again = read(libreoffice.convert(path, "xlsx", work), options)
    again.notes.append("formulas without a cached value recalculated with LibreOffice (--recalc)")
    return again


def ocr_pictures(doc: Document, options: ReadOptions) -> None:
    """--ocr-images: the text OCR reads in each embedded picture, as a quote under it."""
    if not ocr.available():
        doc.notes.append(ocr.OCR_UNAVAILABLE)
        return
    assets = {asset.name: asset.data for asset in doc.assets}
    targets = [
        (index, assets[block.asset])
        for index, block in enumerate(doc.blocks)
        if block.kind == "image"
        and block.asset in assets
        and Path(block.asset).suffix.lower() in OCR_PICTURE_TYPES
    ]
    if not targets:
        return
    text = " ".join(block.text for block in doc.blocks if block.kind != "image")
    tries = [options.ocr_lang] if options.ocr_lang else ocr.candidate_languages(text)

    pictures = ((index, _picture(data)) for index, data in targets)
    readable = ((index, picture) for index, picture in pictures if picture is not None)

    def read(run: list[tuple[int, Image]]) -> list[tuple[int, str]]:
        """Pictures read by one Tesseract process."""
        images = [picture for _index, picture in run]
        found = ocr.recognise(images, tries, [1.0] * len(images), picture=True)
        return [(i, ocr.picture_text(r)) for (i, _), r in zip(run, found, strict=True)]

    batches = ocr.runs(readable, lambda item: item[1], lambda _item: False)
    texts = dict(pair for run in ocr.bounded_map(read, batches, options.ocr_jobs) for pair in run)
    found = [texts.get(index, "") for index, _data in targets]
    for (index, _data), words in sorted(zip(targets, found, strict=True), reverse=True):
        if words.strip():
            doc.blocks.insert(index + 1, Block("quote", words))
    doc.counts["ocr_pictures"] = sum(1 for words in found if words.strip())


def _picture(data: bytes) -> Image | None:
    """The picture as a grayscale image; None when it is not one Pillow reads, or too large."""
    from PIL import Image as PIL
    from PIL import UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            # the size is checked below, before any pixel is decoded
            warnings.simplefilter("ignore", PIL.DecompressionBombWarning)
            picture = PIL.open(io.BytesIO(data))
        if picture.width * picture.height > MAX_PAGE_PIXELS:
            return None  # a small file may claim a huge canvas
        return ocr.prepared(picture.convert("L"))
    except (UnidentifiedImageError, OSError, PIL.DecompressionBombError):
        return None
