"""The PDF budgets: one per input file, for every stream decoded and everything drawn.

Bytes. While `measured(budget, where)` runs, each stream pdfminer decodes (xref and object
streams when the document opens; content streams, forms, fonts, CMaps, object streams and
pictures while a page is read) is first measured with the bounded counters of
`filters.py` and taken from the budget: past it, UnsafeFileError naming the stream and
where it was decoded, before anything is decoded in full. Pages that pdfium renders for
OCR are measured before rendering (`check_render`).

Drawing. With a `Drawing` too, every content operator the interpreter reads, every form
XObject it draws (and how deep forms nest) and every object the layout device builds
(characters, paths, pictures, forms) is counted against the limits of `limits.py`: past one,
TooComplexError at that operator or object, naming the limit and its option. Bytes alone
do not bound the work: a 2.9 KB file of nested forms draws 10^8 of them.

pdfminer's methods (`PDFStream.decode`, `PDFContentParser.nextobject`,
`PDFPageInterpreter.do_Do`, `LTContainer.add`) are wrapped only while some thread is
inside `measured` (counted, so threads share one install) and each thread sees its own
budget and drawing (a context variable). A refusal is kept (`refused`, `refusal`), so a
library that swallows the error cannot hide it."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from officecli.readers.drawing_limits import LIMITS
from officecli.readers.errors import TooComplexError
from officecli.readers.pdf.filters import expanded_cost, filter_name
from officecli.readers.safety import ExpansionBudget

MAX_EXPANDED_BYTES = 128 * 1024 * 1024  # all decoded streams of one PDF together
_CODECS = ("DCTDecode", "DCT", "JPXDecode", "JBIG2Decode", "CCITTFaxDecode", "CCF")
_SKIPPED_KEYS = ("Parent", "P")  # links back up to the page tree, not what a page draws


class Drawing:
    """What drawing a document has built so far, against its limits: operators, forms,
    their nesting and objects on the current page; objects over the document."""

    def __init__(self, label: str, limits: dict[str, int]) -> None:
        self.label = label
        self.limits = limits
        self.objects = 0
        self.page = 0
        self.operators = self.forms = self.depth = self.page_objects = 0
        self.refusal: TooComplexError | None = None

    def start_page(self, number: int) -> None:
        self.page = number
        self.operators = self.forms = self.depth = self.page_objects = 0

    def operator(self) -> None:
        self.operators += 1
        if self.operators > self.limits["operators"]:
            self._refuse("operators")

    def enter_form(self) -> None:
        self.forms += 1
        self.depth += 1
        if self.forms > self.limits["forms"]:
            self._refuse("forms")
        if self.depth > self.limits["form_depth"]:
            self._refuse("form_depth")

    def leave_form(self) -> None:
        self.depth -= 1

    def drawn(self) -> None:
        self.objects += 1
        self.page_objects += 1
        if self.page_objects > self.limits["page_objects"]:
            self._refuse("page_objects")
        if self.objects > self.limits["objects"]:
            self._refuse("objects")

    def _refuse(self, name: str) -> None:
        option, what, _default = LIMITS[name]
        limit = self.limits[name]
        self.refusal = TooComplexError(
            f"{self.label}: page {self.page} goes past the limit on {what}: {limit} ({option})",
            suggestion=f"raise {option} (now {limit}) only if you trust the file",
        )
        raise self.refusal


class _Measure:
    __slots__ = ("budget", "drawing", "where")

    def __init__(self, budget: ExpansionBudget, where: str, drawing: Drawing | None) -> None:
        self.budget, self.where, self.drawing = budget, where, drawing


_CURRENT: ContextVar[_Measure | None] = ContextVar("pdf_budget", default=None)


def _drawing() -> Drawing | None:
    current = _CURRENT.get()
    return None if current is None else current.drawing


def _decode(original: Callable[..., Any]) -> Callable[..., Any]:
    def decode(stream: Any) -> None:
        current = _CURRENT.get()
        if current is not None and stream.rawdata is not None:
            cost = stream_cost(stream, current.budget.left)
            current.budget.take(cost, f"{_stream_label(stream)} decoded {current.where}")
        original(stream)

    return decode


def _nextobject(original: Callable[..., Any]) -> Callable[..., Any]:
    from pdfminer.psparser import PSKeyword

    def nextobject(parser: Any) -> Any:
        found = original(parser)
        drawing = _drawing()
        if drawing is not None and isinstance(found[1], PSKeyword):
            drawing.operator()
        return found

    return nextobject


def _do_xobject(original: Callable[..., Any]) -> Callable[..., Any]:
    def do_Do(interpreter: Any, name: Any) -> None:
        drawing = _drawing()
        if drawing is None or not _is_form(interpreter, name):
            original(interpreter, name)
            return
        drawing.enter_form()
        try:
            original(interpreter, name)
        finally:
            drawing.leave_form()

    return do_Do


def _is_form(interpreter: Any, name: Any) -> bool:
    """Whether `Do name` draws a form XObject (as pdfminer decides when it draws it)."""
    from pdfminer.pdfinterp import LITERAL_FORM
    from pdfminer.pdftypes import PDFStream, resolve1
    from pdfminer.psparser import literal_name

    try:
        xobject = resolve1(interpreter.xobjmap.get(literal_name(name)))
    except Exception:  # noqa: BLE001 - a broken reference: pdfminer draws nothing either
        return False
    return isinstance(xobject, PDFStream) and xobject.get("Subtype") is LITERAL_FORM


def _add(original: Callable[..., Any]) -> Callable[..., Any]:
    def add(container: Any, obj: Any) -> None:
        drawing = _drawing()
        if drawing is not None:
            drawing.drawn()
        original(container, obj)

    return add


class _Hooks:
    """pdfminer's methods, wrapped while at least one conversion needs them."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.users = 0
        self.saved: list[tuple[type, str, Any]] = []  # (class, name, its own attribute)

    def _targets(self) -> list[tuple[type, str, Callable[..., Any]]]:
        from pdfminer.layout import LTContainer
        from pdfminer.pdfinterp import PDFContentParser, PDFPageInterpreter
        from pdfminer.pdftypes import PDFStream

        return [
            (PDFStream, "decode", _decode),
            (PDFContentParser, "nextobject", _nextobject),
            (PDFPageInterpreter, "do_Do", _do_xobject),
            (LTContainer, "add", _add),
        ]

    def enter(self) -> None:
        with self.lock:
            if self.users == 0:
                for cls, name, wrap in self._targets():
                    self.saved.append((cls, name, cls.__dict__.get(name)))
                    setattr(cls, name, wrap(getattr(cls, name)))
            self.users += 1

    def leave(self) -> None:
        with self.lock:
            self.users -= 1
            if self.users == 0:
                for cls, name, own in reversed(self.saved):
                    if own is None:
                        delattr(cls, name)  # inherited before: inherited again
                    else:
                        setattr(cls, name, own)
                self.saved.clear()


_HOOKS = _Hooks()


@contextmanager
def measured(budget: ExpansionBudget, where: str, drawing: Drawing | None = None) -> Iterator[None]:
    """Every stream pdfminer decodes in this thread while the block runs is measured and
    taken from `budget`; `where` ("while page 3 is read") says when, in the refusal. With
    `drawing`, what the pages draw is counted against its limits too."""
    _HOOKS.enter()
    token = _CURRENT.set(_Measure(budget, where, drawing))
    try:
        yield
    finally:
        _CURRENT.reset(token)
        _HOOKS.leave()


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
