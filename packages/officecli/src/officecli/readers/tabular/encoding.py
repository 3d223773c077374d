"""The text encoding of a CSV/TSV/Markdown file: detected, or checked when given."""

from __future__ import annotations

import codecs
from pathlib import Path

from agentcli.files import open_regular
from officecli.readers.tabular.table import TableReadError

_STRICT_ENCODINGS = ("utf-8-sig", "cp932")
_CHUNK = 1 << 20
DETECT_BYTES = 8 << 20  # what charset-normalizer reads to guess an encoding
# Codecs that need a byte-order mark and refuse a file without one.
_BOM_NEEDED = {"utf-16": (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)}
_BOM_NEEDED["utf-32"] = (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)


def _decodes(path: Path, encoding: str) -> bool:
    """Whether the whole file decodes strictly; read in chunks so memory stays flat."""
    decoder = codecs.getincrementaldecoder(encoding)("strict")
    try:
        with open_regular(path, path.name) as fh:
            while chunk := fh.read(_CHUNK):
                decoder.decode(chunk)
            decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def detect_encoding(path: Path) -> str:
    """utf-8 (with or without BOM), then cp932, both strict; then charset-normalizer."""
    for encoding in _STRICT_ENCODINGS:
        if _decodes(path, encoding):
            if encoding == "utf-8-sig":
                with open_regular(path, path.name) as fh:
                    return "utf-8-sig" if fh.read(3) == codecs.BOM_UTF8 else "utf-8"
            return encoding
    from charset_normalizer import from_bytes

    with open_regular(path, path.name) as fh:  # enough to tell; never the whole file
        best = from_bytes(fh.read(DETECT_BYTES)).best()
    if best is None:
        raise TableReadError(
            f"{path.name}: cannot tell the text encoding",
            suggestion="pass --encoding, e.g. --encoding cp932",
        )
    return str(best.encoding)


def check_encoding(encoding: str, path: Path) -> str:
    """The codec's canonical name; a usage error for unknown codecs, codecs that are not
    text encodings (rot13, base64, hex) and a BOM-needing codec on a file without one."""
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        raise TableReadError(
            f"unknown encoding {encoding!r}", suggestion="use e.g. utf-8, cp932, shift_jis"
        ) from None
    if not getattr(info, "_is_text_encoding", True):
        raise TableReadError(
            f"{encoding!r} is not a text encoding", suggestion="use e.g. utf-8, cp932, shift_jis"
        )
    marks = _BOM_NEEDED.get(info.name)
    if marks:
        with open_regular(path, path.name) as fh:
            head = fh.read(4)
        if not head.startswith(marks):
            raise TableReadError(
                f"{path.name}: {info.name} needs a byte-order mark and the file has none",
                suggestion=f"use --encoding {info.name}-le or {info.name}-be",
            )
    return info.name
