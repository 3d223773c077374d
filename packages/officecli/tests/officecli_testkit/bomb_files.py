"""Decompression bombs for the budget tests, built small and quick, and doc2md run on them
in a child process that reports its peak memory."""

from __future__ import annotations

import json
import re
import struct
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

MIB = 1 << 20
ENTRY = "from officecli.doc2md.cli import main; main()"
# runs the command in its argv as its only child, then gives the child's peak RSS (KiB on
# Linux) as stderr's last line: doc2md itself leaves with os._exit, past any finally
PEAK = """
import resource, subprocess, sys
code = subprocess.run(sys.argv[1:], check=False).returncode
print("peak_rss_kib", resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)
sys.exit(code)
"""


def doc2md(*args: str | Path) -> tuple[int, dict[str, Any]]:
    code, report, _peak = doc2md_peak(*args)
    return code, report


def doc2md_peak(*args: str | Path) -> tuple[int, dict[str, Any], int]:
    """(exit code, JSON report, peak RSS in MiB) of doc2md run with `args`."""
    done = subprocess.run(
        [sys.executable, "-c", PEAK, sys.executable, "-c", ENTRY, *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    peak = re.findall(r"^peak_rss_kib (\d+)$", done.stderr, re.MULTILINE)
    return done.returncode, json.loads(done.stdout), int(peak[-1]) // 1024


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


def lzw_of_spaces(total: int) -> bytes:
    """LZWDecode data of about `total` spaces: a reset, a space, then each new code the
    previous string plus its first byte (lengths 2, 3, ... 3839), then the longest code
    over and over: some 2500 bytes out for each 1.5 in."""
    codes, widths, table, width = [256, 32], [9, 9], 258, 9
    size = 1
    while size < total:
        code = min(table, 4095)
        size += code - 256
        codes.append(code)
        widths.append(width)
        table += 1
        width = {511: 10, 1023: 11, 2047: 12}.get(table, width)
    out, acc, bits = bytearray(), 0, 0
    for code, w in zip(codes, widths, strict=True):
        acc, bits = (acc << w) | code, bits + w
        while bits >= 8:
            bits -= 8
            out.append((acc >> bits) & 0xFF)
        acc &= (1 << bits) - 1
    if bits:
        out.append((acc << (8 - bits)) & 0xFF)
    return bytes(out)


def runlength_of_spaces(total: int) -> bytes:
    """RunLengthDecode data of `total` spaces (rounded up to 128): runs of 128, 2 bytes each."""
    return b"\x81 " * -(-total // 128) + b"\x80"


def pdf_file(objects: list[bytes]) -> bytes:
    """A PDF of the given objects (numbered from 1, the catalog first) and its xref table."""
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


def stream(data: bytes, extra: bytes = b"") -> bytes:
    return b"<< /Length %d %s>>\nstream\n" % (len(data), extra) + data + b"\nendstream"


CATALOG = b"<< /Type /Catalog /Pages 2 0 R >>"
HELVETICA = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
_PAGE = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R /Resources %s >>"


def nested_forms_pdf(depth: int, fanout: int) -> bytes:
    """One page drawing form X0; each form Xi draws X(i+1) `fanout` times, and the last,
    X(depth), shows a word: fanout ** depth words from a few kilobytes."""
    forms = []
    for level in range(depth + 1):
        if level < depth:
            body = b" ".join([b"/X Do"] * fanout)
            resources = b"<< /XObject << /X %d 0 R >> >>" % (7 + level)
        else:
            body = b"BT /F1 12 Tf 72 700 Td (bomb) Tj ET"
            resources = b"<< /Font << /F1 5 0 R >> >>"
        head = b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources %s " % resources
        forms.append(stream(body, head))
    page = _PAGE % (4, b"<< /XObject << /X 6 0 R >> >>")
    pages = b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>"
    return pdf_file([CATALOG, pages, page, stream(b"/X Do"), HELVETICA, *forms])


def operators_pdf(operator: bytes, count: int, pages: int = 1) -> bytes:
    """`pages` pages sharing one deflated content stream of `operator` `count` times
    (text operators inside BT/ET, in Helvetica)."""
    body = b"BT /F1 1 Tf 1 0 0 1 20 700 Tm\n" + operator * count + b"ET"
    kids = b" ".join(b"%d 0 R" % (6 + n) for n in range(pages))
    tree = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, pages)
    content = stream(zlib.compress(body, 9), b"/Filter /FlateDecode ")
    page = _PAGE % (4, b"<< /Font << /F1 5 0 R >> >>")
    return pdf_file([CATALOG, tree, b"null", content, HELVETICA, *[page] * pages])


def capped(argv: list[str], cap_mib: int, timeout: float) -> subprocess.CompletedProcess[bytes]:
    """`argv` run in a child whose address space is capped at `cap_mib` MiB and whose run
    is cut at `timeout` seconds: a regression fails the test, not the machine."""
    import resource

    def cap() -> None:
        limit = cap_mib * MIB
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return subprocess.run(argv, capture_output=True, timeout=timeout, check=False, preexec_fn=cap)


def doc2md_capped(
    *args: str | Path, cap_mib: int = 1024, timeout: float = 60
) -> tuple[int, dict[str, Any]]:
    """(exit code, JSON report) of doc2md run with `args` under a memory and time cap."""
    done = capped([sys.executable, "-c", ENTRY, *map(str, args)], cap_mib, timeout)
    return done.returncode, json.loads(done.stdout)


def merged_xlsx(
    path: Path, rows: list[list[str]], merges: list[str], sheet_extra: str = ""
) -> Path:
    """A workbook written by hand (a library would expand the merges itself): one sheet of
    `rows` of inline strings from A1, the `merges` ("A1:XFD1048576") and `sheet_extra`
    XML before the cells (<cols> with a hidden column sends it to the expat scan)."""
    import zipfile

    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    pkg = "http://schemas.openxmlformats.org/package/2006/relationships"
    cells = "".join(
        f'<row r="{r}">'
        + "".join(
            f'<c r="{chr(65 + c)}{r}" t="inlineStr"><is><t>{text}</t></is></c>'
            for c, text in enumerate(row)
            if text
        )
        + "</row>"
        for r, row in enumerate(rows, 1)
    )
    merged = "".join(f'<mergeCell ref="{ref}"/>' for ref in merges)
    sheet = (
        f'<worksheet xmlns="{main}">{sheet_extra}<sheetData>{cells}</sheetData>'
        f'<mergeCells count="{len(merges)}">{merged}</mergeCells></worksheet>'
    )
    ct = "http://schemas.openxmlformats.org/package/2006/content-types"
    ox = "application/vnd.openxmlformats-officedocument.spreadsheetml"
    parts = {
        "[Content_Types].xml": (
            f'<Types xmlns="{ct}"><Default Extension="rels" '
            'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            f'<Default Extension="xml" ContentType="application/xml"/>'
            f'<Override PartName="/xl/workbook.xml" ContentType="{ox}.sheet.main+xml"/>'
            f'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="{ox}.worksheet+xml"/>'
            "</Types>"
        ),
        "_rels/.rels": (
            f'<Relationships xmlns="{pkg}"><Relationship Id="rId1" '
            f'Type="{rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>'
        ),
        "xl/workbook.xml": (
            f'<workbook xmlns="{main}" xmlns:r="{rel}"><sheets>'
            '<sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>'
        ),
        "xl/_rels/workbook.xml.rels": (
            f'<Relationships xmlns="{pkg}"><Relationship Id="rId1" '
            f'Type="{rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'
        ),
        "xl/worksheets/sheet1.xml": sheet,
    }
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, text in parts.items():
            zf.writestr(name, text)
    return path
