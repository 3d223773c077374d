"""The PDF expansion budget: before a page is read, its content streams (and the forms it
draws) are inflated with a bounded inflater and counted against one budget for the file,
so a FlateDecode bomb costs at most the budget, never the memory it would expand to.
The streams pdfminer decodes while the document opens (xref and object streams, document
info) are measured the same way, just before pdfminer decodes each (`measured_at_open`)."""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from officecli.readers.safety import ExpansionBudget

MAX_EXPANDED_BYTES = 128 * 1024 * 1024  # all measured streams of one PDF together
_STEP = 1 << 20
_FLATE = ("FlateDecode", "Fl")
_ASCII = ("ASCII85Decode", "A85", "ASCIIHexDecode", "AHx")
_MAX_FORM_DEPTH = 8


def _name(obj: Any) -> str:
    return str(getattr(obj, "name", obj)).strip("/'")


def stream_size(stream: Any, limit: int) -> int:
    """The bytes a stream decodes to, counted up to limit + 1 (then it is over budget)."""
    raw = stream.get_rawdata()
    if raw is None:  # already decoded by pdfminer
        return len(stream.get_data())
    return inflated_size(raw, [_name(f) for f, _ in stream.get_filters()], limit)


def inflated_size(raw: bytes, filters: list[str], limit: int) -> int:
    """The size of raw bytes decoded through their filters, counted up to limit + 1.

    ASCII filters (which only shrink) are decoded; a FlateDecode that another filter
    follows is inflated within the limit and handed on; the last FlateDecode is inflated
    step by step and its output dropped. At any other filter, or an inflation that fails
    (encrypted, damaged), the bytes so far are the size.
    """
    from pdfminer.ascii85 import ascii85decode, asciihexdecode

    data = raw
    for i, name in enumerate(filters):
        if name in _ASCII:
            try:
                data = (ascii85decode if name in _ASCII[:2] else asciihexdecode)(data)
            except ValueError:
                break
        elif name not in _FLATE:
            break
        elif i == len(filters) - 1:
            return _inflated(data, limit, keep=False)[0]
        else:
            size, data = _inflated(data, limit, keep=True)
            if size > limit:
                return size
    return len(data)


def _inflated(data: bytes, limit: int, keep: bool) -> tuple[int, bytes]:
    """(bytes inflated, up to limit + 1; the bytes too if `keep`); the input's own size
    (and the input) when it is not zlib data."""
    inflater = zlib.decompressobj()
    size, rest, out = 0, data, []
    try:
        while rest and size <= limit:
            chunk = inflater.decompress(rest, _STEP)
            size += len(chunk)
            if keep:
                out.append(chunk)
            rest = inflater.unconsumed_tail
    except zlib.error:
        return len(data), data
    return size, b"".join(out)


def _resolved(obj: Any) -> Any:
    from pdfminer.pdftypes import resolve1

    return resolve1(obj)


def page_streams(page: Any) -> Iterator[Any]:
    """The page's content streams and the form XObjects it can draw, each once."""
    from pdfminer.pdftypes import PDFStream

    seen: set[int] = set()

    def forms(resources: Any, depth: int) -> Iterator[Any]:
        resources = _resolved(resources)
        xobjects = _resolved(resources.get("XObject")) if isinstance(resources, dict) else None
        if not isinstance(xobjects, dict) or depth > _MAX_FORM_DEPTH:
            return
        for ref in xobjects.values():
            xobject = _resolved(ref)
            if not isinstance(xobject, PDFStream) or id(xobject) in seen:
                continue
            seen.add(id(xobject))
            if _name(xobject.get("Subtype")) == "Form":
                yield xobject
                yield from forms(xobject.get("Resources"), depth + 1)

    contents = page.contents if isinstance(page.contents, list) else [page.contents]
    for stream in contents:
        stream = _resolved(stream)
        if isinstance(stream, PDFStream):
            yield stream
    yield from forms(page.resources, 0)


def page_expansion(page: Any, limit: int) -> int:
    """Bytes the page's streams expand to; stops counting once past `limit`."""
    total = 0
    for stream in page_streams(page):
        total += stream_size(stream, limit - total)
        if total > limit:
            break
    return total


_OPENING: ContextVar[ExpansionBudget | None] = ContextVar("pdf_opening", default=None)


@contextmanager
def measured_at_open(budget: ExpansionBudget) -> Iterator[None]:
    """While the block runs, each stream pdfminer decodes is first measured (bounded) and
    taken from `budget`: past it, UnsafeFileError before anything is inflated in full."""
    _measure_decodes()
    token = _OPENING.set(budget)
    try:
        yield
    finally:
        _OPENING.reset(token)


def _measure_decodes() -> None:
    """Wrap pdfminer's PDFStream.decode (once per process): outside measured_at_open it
    decodes as before."""
    from pdfminer.pdftypes import PDFStream

    original = PDFStream.decode
    if getattr(original, "measured", False):
        return

    def decode(stream: PDFStream) -> None:
        budget = _OPENING.get()
        if budget is not None and stream.rawdata is not None:
            data = stream.rawdata
            if stream.decipher and stream.objid is not None and stream.genno is not None:
                data = stream.decipher(stream.objid, stream.genno, data, stream.attrs)
            filters = [_name(f) for f, _ in stream.get_filters()]
            size = inflated_size(data, filters, budget.left)
            budget.take(size, f"stream object {stream.objid} decoded when the document opens")
        original(stream)

    decode.measured = True  # type: ignore[attr-defined]
    PDFStream.decode = decode  # type: ignore[method-assign,assignment]
