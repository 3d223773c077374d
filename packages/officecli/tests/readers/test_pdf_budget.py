"""One expansion budget per PDF, for every stream decoded from opening to the last page:
bombs in content streams, fonts, pictures and object streams, under every filter pdfminer
inflates, are generated here (small on disk, quick) and refused within bounded memory."""

from __future__ import annotations

import base64
import os
import struct
import threading
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from officecli_testkit.bomb_files import (
    MIB,
    doc2md,
    doc2md_peak,
    lzw_of_spaces,
    pdf_file,
    runlength_of_spaces,
    stream,
    zlib_of_repeats,
)

from officecli.readers import ocr
from officecli.readers.model import ReadOptions
from officecli.readers.pdf import budget as pdf_budget
from officecli.readers.pdf import filters as pdf_filters
from officecli.readers.pdf.reader import read_pdf
from officecli.readers.safety import UnsafeFileError

PAST = pdf_budget.MAX_EXPANDED_BYTES + 72 * MIB  # a bomb's expansion: past the budget
PEAK_MIB = 100  # doc2md's peak memory on any of these bombs (about 40): they expand to 200
CATALOG = b"<< /Type /Catalog /Pages 2 0 R >>"
TEXT = b"BT /F1 24 Tf 72 700 Td (Second page text) Tj ET"
HELVETICA = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def _two_pages(first: bytes, first_resources: bytes, extra: list[bytes]) -> bytes:
    """Page 1 draws stream object 4 (`first`) with `first_resources`; page 2 (object 5)
    shows TEXT in Helvetica (object 7); `extra` objects follow from number 8."""
    page = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
    return pdf_file(
        [
            CATALOG,
            b"<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>",
            page % 4 + b"/Resources " + first_resources + b" >>",
            first,
            page % 6 + b"/Resources << /Font << /F1 7 0 R >> >> >>",
            stream(TEXT),
            HELVETICA,
            *extra,
        ]
    )


def _refused(path: Path, out: Path, message: str, peak_mib: int = PEAK_MIB) -> None:
    """doc2md refuses the file (UNSAFE_FILE, exit 2, nothing written), naming the stream
    and where it was decoded, and stays under `peak_mib` of memory."""
    code, report, peak = doc2md_peak(path, "-d", out)
    failed = report["findings"][0]
    assert (code, failed["rule_id"], failed["field"]) == (2, "convert.failed", "UNSAFE_FILE")
    assert failed["message"] == (
        f"{path.name}: {message} expands past the file's budget of "
        f"{pdf_budget.MAX_EXPANDED_BYTES} bytes"
    )
    assert not (out / f"{path.stem}.md").exists()
    assert peak < peak_mib


@pytest.mark.parametrize(
    ("filters", "data"),
    [
        (b"/FlateDecode", lambda: zlib_of_repeats(b" " * MIB, PAST // MIB)),
        (b"/LZWDecode", lambda: lzw_of_spaces(PAST // pdf_filters.LZW_COST)),
        (b"/RunLengthDecode", lambda: runlength_of_spaces(PAST // pdf_filters.RUNLENGTH_COST)),
    ],
    ids=["flate", "lzw", "runlength"],
)
def test_pdf_content_stream_past_the_budget_refuses_the_file_naming_the_page(
    tmp_path: Path, filters: bytes, data: Callable[[], bytes]
) -> None:
    bomb = stream(data(), b"/Filter " + filters + b" ")
    path = tmp_path / "content.pdf"
    path.write_bytes(_two_pages(bomb, b"<< /Font << /F1 7 0 R >> >>", []))
    assert path.stat().st_size < 2 * MIB
    _refused(path, tmp_path / "out", "stream object 4 decoded while page 1 is read")


def test_pdf_font_file_past_the_budget_refuses_the_file(tmp_path: Path) -> None:
    """pdfminer reads a Type 1 font's file (its first Length1 bytes) when the page uses it."""
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Bomb /FontDescriptor 9 0 R >>"
    descriptor = b"<< /Type /FontDescriptor /FontName /Bomb /Flags 32 /FontFile 10 0 R >>"
    bomb = zlib_of_repeats(b" " * MIB, PAST // MIB)
    font_file = stream(bomb, b"/Filter /FlateDecode /Length1 16 /Length2 0 /Length3 0 ")
    extra = [font, descriptor, font_file]
    path = tmp_path / "font.pdf"
    path.write_bytes(_two_pages(stream(TEXT), b"<< /Font << /F1 8 0 R >> >>", extra))
    assert path.stat().st_size < 2 * MIB
    _refused(path, tmp_path / "out", "stream object 10 decoded while page 1 is read")


def test_pdf_pictures_past_the_budget_together_refuse_the_file(tmp_path: Path) -> None:
    """Each picture is within the picture limit; three of them are past the file's budget."""
    width, height = 1024, 46 * 1024  # 46 MiB of grey pixels a picture
    pixels = zlib_of_repeats(b"\0" * MIB, width * height // MIB)
    head = b"/Type /XObject /Subtype /Image /Width %d /Height %d " % (width, height)
    head += b"/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode "
    draw = b"".join(b"q 100 0 0 100 0 %d cm /Im%d Do Q " % (n * 200, n) for n in range(3))
    images = b"<< /XObject << /Im0 8 0 R /Im1 9 0 R /Im2 10 0 R >> >>"
    path = tmp_path / "pictures.pdf"
    path.write_bytes(_two_pages(stream(draw), images, [stream(pixels, head)] * 3))
    # memory: the two pictures decoded within the budget, and a PNG made of one of them
    peak = 2 * pdf_budget.MAX_EXPANDED_BYTES // MIB
    _refused(path, tmp_path / "out", "stream object 10 decoded while page 1 is read", peak)


@pytest.mark.skipif(
    not ocr.available() and not os.environ.get("CI"), reason="needs tesseract (CI has it)"
)
def test_pdf_page_rendered_for_ocr_past_the_budget_is_refused_before_rendering(
    tmp_path: Path,
) -> None:
    """A scan-like page (one picture over the page, no text) is rendered by pdfium, which
    decodes the picture itself: 16384 x 16384 grey pixels, 256 MiB from 256 KiB."""
    side = 16384
    pixels = zlib_of_repeats(b"\xff" * MIB, side * side // MIB)
    head = b"/Type /XObject /Subtype /Image /Width %d /Height %d " % (side, side)
    head += b"/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode "
    page = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
    page += b"/Resources << /XObject << /Im0 5 0 R >> >> >>"
    path = tmp_path / "scan.pdf"
    path.write_bytes(
        pdf_file(
            [
                CATALOG,
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                page,
                stream(b"q 612 0 0 792 0 0 cm /Im0 Do Q"),
                stream(pixels, head),
            ]
        )
    )
    _refused(path, tmp_path / "out", "stream object 5 decoded when page 1 is rendered")


@pytest.mark.parametrize(
    ("filters", "wrap"),
    [
        (b"/FlateDecode", lambda bomb: bomb),
        (b"/FlateDecode /FlateDecode", zlib.compress),  # the bomb inside a second deflate
        (b"/ASCII85Decode /FlateDecode", lambda bomb: base64.a85encode(bomb) + b"~>"),
    ],
    ids=["flate", "flate-flate", "ascii85-flate"],
)
def test_pdf_object_stream_expanding_past_the_budget_is_refused_at_open(
    tmp_path: Path, filters: bytes, wrap: Callable[[bytes], bytes]
) -> None:
    objects, first = _catalog_objects()
    bomb = wrap(zlib_of_repeats(b" " * MIB, PAST // MIB, objects))
    path = tmp_path / "objstm.pdf"
    path.write_bytes(_pdf_with_object_stream(bomb, first, filters))
    assert path.stat().st_size < 2 * MIB
    _refused(path, tmp_path / "out", "stream object 3 decoded when the document opens")


@pytest.mark.parametrize("with_page", [True, False], ids=["one-page", "no-page"])
def test_pdf_refusal_a_library_catches_still_refuses_the_file(
    tmp_path: Path, with_page: bool
) -> None:
    """pdfplumber reads the document information and ignores what fails there: the title
    sits in an object stream past the budget, the refusal is kept and the file refused.
    With no page in the tree pdfminer looks for pages in every object, when the pages are
    counted and again when the document closes: closing is measured too."""
    objects, first = _catalog_objects(with_page)
    title = zlib_of_repeats(b" " * MIB, PAST // MIB, b"6 0 (T) ")
    path = tmp_path / "title.pdf"
    count = 3 if with_page else 2
    data = _pdf_with_object_stream(zlib.compress(objects), first, title=title, count=count)
    path.write_bytes(data)
    assert path.stat().st_size < 2 * MIB
    _refused(path, tmp_path / "out", "stream object 5 decoded when the document opens")


def test_pdf_object_stream_within_the_budget_opens(tmp_path: Path) -> None:
    objects, first = _catalog_objects()
    path = tmp_path / "small.pdf"
    path.write_bytes(_pdf_with_object_stream(zlib.compress(objects + b" " * MIB), first))
    code, report = doc2md(path, "-d", tmp_path / "out")
    findings = report["findings"]
    assert (code, [f["rule_id"] for f in findings]) == (0, ["convert.ok"])


def _pdf_with_object_stream(
    objstm: bytes, first: int, filters: bytes = b"/FlateDecode", title: bytes = b"", count: int = 2
) -> bytes:
    """A PDF 1.5 whose catalog and page tree (and with `count` 3, page 7) sit in object
    stream 3 (data `objstm` under `filters`, objects from byte `first`), indexed by the xref
    stream 4. With `title` (deflated data of an object stream holding object 6 from byte 4),
    that is stream 5 and the document information's title is object 6."""
    out = bytearray(b"%PDF-1.5\n")
    head = b"<< /Type /ObjStm /N %d /First %d /Filter [%s] /Length %d >>"
    offsets = [len(out)]
    out += b"3 0 obj\n" + head % (count, first, filters, len(objstm)) + b"\nstream\n" + objstm
    out += b"\nendstream\nendobj\n"
    rows = [(0, 0, 65535), (2, 3, 0), (2, 3, 1), (1, offsets[0], 0)]
    info = b""
    if title:
        rows += [(1, len(out), 0), (2, 5, 0)]  # objects 5 and 6; row 4 (the xref): below
        rows += [(2, 3, 2)] * (count - 2)  # page 7, in stream 3
        out += b"5 0 obj\n" + head % (1, 4, b"/FlateDecode", len(title)) + b"\nstream\n"
        out += title + b"\nendstream\nendobj\n"
        info = b"/Info << /Title 6 0 R >> "
    rows.insert(4, (1, len(out), 0))
    table = b"".join(struct.pack(">BIH", *row) for row in rows)
    xref = b"<< /Type /XRef /Size %d /W [1 4 2] /Root 1 0 R %s/Length %d >>"
    out += b"4 0 obj\n" + xref % (len(rows), info, len(table)) + b"\nstream\n" + table
    out += b"\nendstream\nendobj\n"
    out += b"startxref\n%d\n%%%%EOF\n" % rows[4][1]
    return bytes(out)


def _catalog_objects(with_page: bool = False) -> tuple[bytes, int]:
    """An object stream's data holding the catalog (1), the page tree (2) and, with a page,
    page 7; and where its objects start."""
    kids = b"[7 0 R] /Count 1" if with_page else b"[] /Count 0"
    bodies = [b"<< /Type /Catalog /Pages 2 0 R >> ", b"<< /Type /Pages /Kids %s >> " % kids]
    if with_page:
        bodies.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> ")
    index, at = b"", 0
    for number, body in zip((1, 2, 7), bodies, strict=False):
        index, at = index + b"%d %d " % (number, at), at + len(body)
    return index + b"".join(bodies), len(index)


def test_lzw_and_runlength_are_counted_as_pdfminer_decodes_them() -> None:
    from pdfminer.lzw import lzwdecode
    from pdfminer.runlength import rldecode

    for total in (1, 300, 5000, 3 * MIB):
        data = lzw_of_spaces(total)
        decoded = lzwdecode(data)
        assert decoded.strip(b" ") == b""
        assert pdf_filters._lzw_size(data, 1 << 40) == len(decoded)
        runs = runlength_of_spaces(total) + b"\x02abc\x80"
        assert pdf_filters._runlength_size(runs) == len(rldecode(runs)) == -(-total // 128) * 128
    text = b"\x80\x0b\x0a\x0b\x40\x0e\x05"  # a reset then codes of one byte and two
    assert pdf_filters._lzw_size(text, 1 << 40) == len(lzwdecode(text))


def _small_pdf(path: Path, text: bytes) -> Path:
    path.write_bytes(_two_pages(stream(text), b"<< /Font << /F1 7 0 R >> >>", []))
    return path


def test_the_decode_hook_is_gone_after_a_conversion_and_budgets_are_per_thread(
    tmp_path: Path,
) -> None:
    """Conversions in two threads at once: each has its own budget (the bomb is refused,
    the other file is read whole), and pdfminer's decode is its own again afterwards."""
    from pdfminer.pdftypes import PDFStream

    original = PDFStream.__dict__["decode"]
    bomb = stream(zlib_of_repeats(b" " * MIB, PAST // MIB), b"/Filter /FlateDecode ")
    bomb_path = tmp_path / "bomb.pdf"
    bomb_path.write_bytes(_two_pages(bomb, b"<< /Font << /F1 7 0 R >> >>", []))
    texts = [b"BT /F1 12 Tf 72 700 Td (line %d) Tj ET" % n for n in range(3)]
    fine = [_small_pdf(tmp_path / f"fine{n}.pdf", text) for n, text in enumerate(texts)]
    outcomes: dict[str, str] = {}

    def convert(path: Path) -> None:
        try:
            doc = read_pdf(path, ReadOptions())
            outcomes[path.name] = " ".join(block.text for block in doc.blocks)
        except UnsafeFileError as exc:
            outcomes[path.name] = str(exc)

    threads = [threading.Thread(target=convert, args=(p,)) for p in [bomb_path, *fine]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert outcomes == {
        "bomb.pdf": (
            "bomb.pdf: stream object 4 decoded while page 1 is read expands past the "
            f"file's budget of {pdf_budget.MAX_EXPANDED_BYTES} bytes"
        ),
        **{f"fine{n}.pdf": f"page 1 line {n} page 2 Second page text" for n in range(3)},
    }
    assert PDFStream.__dict__["decode"] is original
