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


def doc2md(*args: str | Path) -> tuple[int, dict[str, object]]:
    code, report, _peak = doc2md_peak(*args)
    return code, report


def doc2md_peak(*args: str | Path) -> tuple[int, dict[str, object], int]:
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
