"""One expansion budget per input file: bombs are generated here, small on disk and quick."""

from __future__ import annotations

import base64
import json
import struct
import subprocess
import sys
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

from officecli.readers import pdf_budget
from officecli.readers.drawio import MAX_EXPANDED_BYTES

MIB = 1 << 20
ENTRY = "from officecli.doc2md.cli import main; main()"


def doc2md(*args: str | Path) -> tuple[int, dict[str, object]]:
    done = subprocess.run(
        [sys.executable, "-c", ENTRY, *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return done.returncode, json.loads(done.stdout)


def zlib_of_repeats(chunk: bytes, times: int, head: bytes = b"") -> bytes:
    """zlib data of `head + chunk * times`, built from one compressed block repeated (a full
    flush resets the dictionary, so every block is the same bytes): megabytes, not seconds."""
    c = zlib.compressobj(9)
    start = c.compress(head) + c.flush(zlib.Z_FULL_FLUSH)
    first = c.compress(chunk) + c.flush(zlib.Z_FULL_FLUSH)
    block = c.compress(chunk) + c.flush(zlib.Z_FULL_FLUSH)
    check = zlib.adler32(head)
    for _ in range(times):
        check = zlib.adler32(chunk, check)
    return start + first + block * (times - 1) + c.flush()[:-4] + struct.pack(">I", check)


def test_zlib_of_repeats_is_real_zlib() -> None:
    assert zlib.decompress(zlib_of_repeats(b"ab" * 1000, 5)) == b"ab" * 5000
    assert zlib.decompress(zlib_of_repeats(b"ab", 3, b"<<>>")) == b"<<>>ababab"


def test_drawio_budget_is_per_file_not_per_page(tmp_path: Path) -> None:
    page_bytes = MAX_EXPANDED_BYTES // 2 - MIB  # each page alone is well within the limit
    body = b"<mxGraphModel><!--" + b"x" * page_bytes + b"--></mxGraphModel>"
    packed = base64.b64encode(zlib.compress(body, 9)[2:-4]).decode()  # raw deflate
    pages = "".join(f'<diagram name="p{n}">{packed}</diagram>' for n in range(3))
    path = tmp_path / "bomb.drawio"
    path.write_text(f"<mxfile>{pages}</mxfile>", encoding="utf-8")
    assert path.stat().st_size < MIB
    code, report = doc2md(path, "-d", tmp_path / "out")
    failed = report["findings"][0]  # type: ignore[index]
    assert (code, failed["rule_id"], failed["field"]) == (2, "convert.failed", "UNSAFE_FILE")
    assert "expands" in failed["message"]
    assert not (tmp_path / "out" / "bomb.md").exists()


def _pdf(objects: list[bytes]) -> bytes:
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def _stream(data: bytes, extra: bytes = b"") -> bytes:
    return b"<< /Length %d %s>>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def test_pdf_page_whose_streams_expand_past_the_budget_is_skipped_and_reported(
    tmp_path: Path,
) -> None:
    times = pdf_budget.MAX_EXPANDED_BYTES // MIB + 8
    bomb = zlib_of_repeats(b" " * MIB, times)
    page = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
    page += b"/Resources << /Font << /F1 7 0 R >> >> >>"
    path = tmp_path / "bomb.pdf"
    path.write_bytes(
        _pdf(
            [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>",
                page % 4,
                _stream(bomb, b"/Filter /FlateDecode "),
                page % 6,
                _stream(b"BT /F1 24 Tf 72 700 Td (Second page survives) Tj ET"),
                b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            ]
        )
    )
    assert path.stat().st_size < 2 * MIB
    code, report = doc2md(path, "-d", tmp_path / "out")
    findings = report["findings"]  # type: ignore[index]
    assert code == 0
    assert [f["rule_id"] for f in findings if f["severity"] == "warning"] == ["convert.truncated"]
    cut = next(f for f in findings if f["rule_id"] == "convert.truncated")
    assert cut["message"].startswith("page 1 not read: its content streams expand past")
    assert "Second page survives" in (tmp_path / "out" / "bomb.md").read_text("utf-8")


def test_every_zip_based_format_refuses_a_zip_bomb(tmp_path: Path) -> None:
    from officecli.readers.registry import FORMATS

    for fmt in (f for f in FORMATS if f.zip_based):
        path = tmp_path / f"bomb{fmt.extensions[0]}"
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr("[Content_Types].xml", "<Types/>")
            zf.writestr("big.xml", b"<a>" + b"0" * (4 * MIB) + b"</a>")
        code, report = doc2md(path, "-d", tmp_path / "out")
        assert (code, report["findings"][0]["field"]) == (2, "UNSAFE_FILE"), fmt.name  # type: ignore[index]


def _pdf_with_object_stream(objstm: bytes, first: int, filters: bytes = b"/FlateDecode") -> bytes:
    """A PDF 1.5 whose catalog and page tree sit in object stream 3 (data `objstm` under
    `filters`, objects from byte `first`), indexed by the xref stream 4."""
    out = bytearray(b"%PDF-1.5\n")
    offsets = [len(out)]
    head = b"<< /Type /ObjStm /N 2 /First %d /Filter [%s] /Length %d >>"
    out += b"3 0 obj\n" + head % (first, filters, len(objstm)) + b"\nstream\n" + objstm
    out += b"\nendstream\nendobj\n"
    offsets.append(len(out))
    rows = [(0, 0, 65535), (2, 3, 0), (2, 3, 1), (1, offsets[0], 0), (1, offsets[1], 0)]
    table = b"".join(struct.pack(">BIH", *row) for row in rows)
    xref = b"<< /Type /XRef /Size 5 /W [1 4 2] /Root 1 0 R /Length %d >>" % len(table)
    out += b"4 0 obj\n" + xref + b"\nstream\n" + table + b"\nendstream\nendobj\n"
    out += b"startxref\n%d\n%%%%EOF\n" % offsets[1]
    return bytes(out)


def _catalog_objects() -> tuple[bytes, int]:
    catalog, pages = b"<< /Type /Catalog /Pages 2 0 R >> ", b"<< /Type /Pages /Kids [] /Count 0 >> "
    index = b"1 0 2 %d " % len(catalog)
    return index + catalog + pages, len(index)


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
    times = pdf_budget.MAX_EXPANDED_BYTES // MIB + 8
    bomb = wrap(zlib_of_repeats(b" " * MIB, times, objects))
    path = tmp_path / "objstm.pdf"
    path.write_bytes(_pdf_with_object_stream(bomb, first, filters))
    assert path.stat().st_size < 2 * MIB
    code, report = doc2md(path, "-d", tmp_path / "out")
    failed = report["findings"][0]  # type: ignore[index]
    assert (code, failed["rule_id"], failed["field"]) == (2, "convert.failed", "UNSAFE_FILE")
    assert "stream object 3 decoded when the document opens expands past" in failed["message"]
    assert not (tmp_path / "out" / "objstm.md").exists()


def test_pdf_object_stream_within_the_budget_opens(tmp_path: Path) -> None:
    objects, first = _catalog_objects()
    path = tmp_path / "small.pdf"
    path.write_bytes(_pdf_with_object_stream(zlib.compress(objects + b" " * MIB), first))
    code, report = doc2md(path, "-d", tmp_path / "out")
    findings = report["findings"]  # type: ignore[index]
    assert (code, [f["rule_id"] for f in findings]) == (0, ["convert.ok"])
