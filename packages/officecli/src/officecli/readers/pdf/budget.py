"""The PDF expansion budget: one per input file, for every stream decoded while it is read.

While `measured(budget, where)` runs, each stream pdfminer decodes (xref and object
streams when the document opens; content streams, forms, fonts, CMaps, object streams and
pictures while a page is read) is first measured with the bounded counters of
`filters.py` and taken from the budget: past it, UnsafeFileError naming the stream and
where it was decoded, before anything is decoded in full. The wrapper round pdfminer's
`PDFStream.decode` is installed only while some thread is inside `measured` (counted, so
threads share one install) and each thread sees its own budget (a context variable).
Pages that pdfium renders for OCR are measured before rendering (`check_render`)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from officecli.readers.pdf.filters import expanded_cost, filter_name
from officecli.readers.safety import ExpansionBudget

MAX_EXPANDED_BYTES = 128 * 1024 * 1024  # all decoded streams of one PDF together
_CODECS = ("DCTDecode", "DCT", "JPXDecode", "JBIG2Decode", "CCITTFaxDecode", "CCF")
_SKIPPED_KEYS = ("Parent", "P")  # links back up to the page tree, not what a page draws

_CURRENT: ContextVar[tuple[ExpansionBudget, str] | None] = ContextVar("pdf_budget", default=None)


class _DecodeHook:
    """pdfminer's PDFStream.decode, wrapped while at least one conversion needs it."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.users = 0
        self.original: Callable[[Any], None] | None = None

    def enter(self) -> None:
        from pdfminer.pdftypes import PDFStream

        with self.lock:
            if self.users == 0:
                original = PDFStream.decode
                self.original = original

                def decode(stream: PDFStream) -> None:
                    current = _CURRENT.get()
                    if current is not None and stream.rawdata is not None:
                        budget, where = current
                        cost = stream_cost(stream, budget.left)
                        budget.take(cost, f"{_stream_label(stream)} decoded {where}")
                    original(stream)

                PDFStream.decode = decode  # type: ignore[method-assign,assignment]
            self.users += 1

    def leave(self) -> None:
        from pdfminer.pdftypes import PDFStream

        with self.lock:
            self.users -= 1
            if self.users == 0 and self.original is not None:
                PDFStream.decode = self.original  # type: ignore[method-assign,assignment]
                self.original = None


_HOOK = _DecodeHook()


@contextmanager
def measured(budget: ExpansionBudget, where: str) -> Iterator[None]:
    """Every stream pdfminer decodes in this thread while the block runs is measured and
    taken from `budget`; `where` ("while page 3 is read") says when, in the refusal."""
    _HOOK.enter()
    token = _CURRENT.set((budget, where))
    try:
        yield
    finally:
        _CURRENT.reset(token)
        _HOOK.leave()


def stream_cost(stream: Any, limit: int) -> int:
    """What decoding a stream costs, counted up to limit + 1 (after decryption)."""
    data = stream.rawdata
    if data is None:
        return 0  # decoded already, and counted then
    if stream.decipher and stream.objid is not None and stream.genno is not None:
        data = stream.decipher(stream.objid, stream.genno, data, stream.attrs)
    filters = [(filter_name(f), params) for f, params in stream.get_filters()]
    return expanded_cost(data, filters, limit)


def _stream_label(stream: Any) -> str:
    return "an inline image" if stream.objid is None else f"stream object {stream.objid}"


def check_render(page: Any, budget: ExpansionBudget, where: str) -> None:
    """Before pdfium renders a page (for OCR): the streams it will decode that pdfminer
    has not (pictures, soft masks, patterns, annotation appearances) must fit in what is
    left of the budget. pdfium frees them with the page, so they are checked, not taken;
    a picture in an image codec counts its declared pixels."""
    left, total = budget.left, 0
    for stream in _drawn_streams(page):
        total += stream_cost(stream, left - total) + _codec_pixels(stream)
        if total > left:  # refused as a decode past the budget is (message, `refused`)
            budget.take(total, f"{_stream_label(stream)} decoded {where}")


def _codec_pixels(stream: Any) -> int:
    filters = [filter_name(f) for f, _ in stream.get_filters()]
    if not filters or filters[-1] not in _CODECS:
        return 0
    attrs = stream.attrs
    width, height = attrs.get("Width", 0), attrs.get("Height", 0)
    if not (isinstance(width, int) and isinstance(height, int)):
        return 0
    return max(width, 0) * max(height, 0) * 4  # at most four colour channels a pixel


def _drawn_streams(page: Any) -> Iterator[Any]:
    """Every stream reachable from what a page draws (contents, resources, annotation
    appearances), each once, not yet decoded."""
    from pdfminer.pdftypes import PDFStream, resolve1

    seen: set[int] = set()
    annots = resolve1(page.attrs.get("Annots"))
    appearances = [resolve1(a).get("AP") for a in annots or [] if isinstance(resolve1(a), dict)]
    todo: list[Any] = [page.attrs.get("Contents"), page.attrs.get("Resources"), *appearances]
    while todo:
        obj = resolve1(todo.pop())
        if not isinstance(obj, dict | list | PDFStream) or id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, PDFStream):
            if obj.rawdata is not None:
                yield obj
            obj = obj.attrs
        if isinstance(obj, list):
            todo.extend(obj)
        else:
            todo.extend(value for key, value in obj.items() if key not in _SKIPPED_KEYS)
