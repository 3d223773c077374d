"""What a PDF stream's filters expand to, counted without building the expansion.

Deflate is inflated step by step and its output dropped, LZW and RunLength are counted
from their codes, ASCII filters (which only shrink) are decoded; a stage that another
filter follows is decoded within the limit and handed on (predictors applied, as pdfminer
does). Counting stops once past the limit, so a bomb costs the limit, never its size.
"""

from __future__ import annotations

import zlib
from typing import Any

_STEP = 1 << 20
FLATE = ("FlateDecode", "Fl")
LZW = ("LZWDecode", "LZW")
RUNLENGTH = ("RunLengthDecode", "RL")
CCITT = ("CCITTFaxDecode", "CCF")
_ASCII85 = ("ASCII85Decode", "A85")
_ASCIIHEX = ("ASCIIHexDecode", "AHx")
# pdfminer's decoders hold more than their output while they run: RunLength builds a list
# of ints (a reference, eight bytes, per byte), LZW keeps every string of its table
RUNLENGTH_COST = 8
LZW_COST = 2
_WIDER = {511: 10, 1023: 11, 2047: 12}  # table sizes at which LZW codes grow a bit


def filter_name(obj: Any) -> str:
    return str(getattr(obj, "name", obj)).strip("/'")


def expanded_cost(data: bytes, filters: list[tuple[str, Any]], limit: int) -> int:
    """Bytes that decoding `data` through `filters` ((name, params) pairs) costs, counted
    up to limit + 1. At a filter pdfminer leaves as it is (DCT, JPX, JBIG2) or cannot
    decode, the bytes so far are the cost."""
    for i, (name, params) in enumerate(filters):
        last = i == len(filters) - 1
        if name in _ASCII85 or name in _ASCIIHEX:
            data = _ascii_decoded(name, data)
            continue
        if name in FLATE:
            cost, data = _inflated(data, limit, keep=not last)
        elif name in LZW:
            cost = _lzw_size(data, limit // LZW_COST + 1) * LZW_COST
            data = _lzw_decoded(data) if not last and cost <= limit else data
        elif name in RUNLENGTH:
            cost = _runlength_size(data) * RUNLENGTH_COST
            data = _runlength_decoded(data) if not last and cost <= limit else data
        elif name in CCITT:
            return _ccitt_bound(data, params)
        else:
            return len(data)
        if last or cost > limit:
            return cost
        data = _predicted(data, params)
    return len(data)


def _ascii_decoded(name: str, data: bytes) -> bytes:
    from pdfminer.ascii85 import ascii85decode, asciihexdecode

    try:
        return (ascii85decode if name in _ASCII85 else asciihexdecode)(data)
    except ValueError:
        return data  # pdfminer fails on it too; what it would have read is no bigger


def _inflated(data: bytes, limit: int, keep: bool) -> tuple[int, bytes]:
    """(bytes inflated, up to limit + 1; the bytes too if `keep`). Damaged data counts
    what inflates before the damage, as pdfminer's fallback reads that much."""
    inflater = zlib.decompressobj()
    size, rest, out = 0, data, []
    try:
        while rest and size <= limit:
            chunk = inflater.decompress(rest, _STEP)
            size += len(chunk)
            if keep:
                out.append(chunk)
            rest = inflater.unconsumed_tail
        if size <= limit:
            tail = inflater.flush()  # what a last step left pending (part of one match)
            size += len(tail)
            out.append(tail)
    except zlib.error:
        pass
    return size, b"".join(out)


def _lzw_size(data: bytes, limit: int) -> int:
    """LZWDecode's output size as pdfminer decodes it, counted up to limit + 1: the length
    of each table string instead of the string (same codes, widths and resets)."""
    lengths: list[int] = []
    prev = 0  # length of the previous code's string; 0 right after a reset
    nbits, pos, size, end = 9, 0, 0, len(data) * 8
    padded = data + b"\0\0"
    while pos + nbits <= end and size <= limit:
        word = int.from_bytes(padded[pos >> 3 : (pos >> 3) + 3], "big")
        code = (word >> (24 - (pos & 7) - nbits)) & ((1 << nbits) - 1)
        pos += nbits
        if code == 256:
            lengths, prev, nbits = [1] * 256 + [0, 0], 0, 9
            continue
        if code == 257:
            continue
        if not lengths:
            break  # a string code before the first reset: pdfminer fails there
        if prev == 0:
            if code >= len(lengths):
                break
            prev = lengths[code]
            size += prev
            continue
        if code < len(lengths):
            out = lengths[code]
        elif code == len(lengths):
            out = prev + 1
        else:
            break  # corrupt data: pdfminer stops there
        lengths.append(prev + 1)
        nbits = _WIDER.get(len(lengths), nbits)
        prev = out
        size += out
    return size


def _lzw_decoded(data: bytes) -> bytes:
    from pdfminer.lzw import lzwdecode

    return lzwdecode(data)


def _runlength_size(data: bytes) -> int:
    """RunLengthDecode's output size: literal runs and repeats, up to the EOD mark."""
    size, at = 0, 0
    while at < len(data) and data[at] != 128:
        length = data[at]
        if length < 128:
            size += min(length + 1, len(data) - at - 1)
            at += length + 2
        else:
            size += 257 - length
            at += 2
    return size


def _runlength_decoded(data: bytes) -> bytes:
    from pdfminer.runlength import rldecode

    return rldecode(data)


def _ccitt_bound(data: bytes, params: Any) -> int:
    """pdfminer decodes a fax image row after row until the data ends: a row takes at
    least one bit, so at most one row of Columns bits for each bit of data."""
    columns = params.get("Columns", 1728) if isinstance(params, dict) else 1728
    return (int(columns) + 7) // 8 * 8 * len(data) if isinstance(columns, int) else len(data)


def _predicted(data: bytes, params: Any) -> bytes:
    """The stage's output after its predictor (which never makes it bigger), as pdfminer
    applies it before the next filter."""
    if not isinstance(params, dict) or "Predictor" not in params:
        return data
    from pdfminer.utils import apply_png_predictor, apply_tiff_predictor

    try:
        predictor = int(params["Predictor"])
        shape = (int(params.get("Colors", 1)), int(params.get("Columns", 1)))
        bits = int(params.get("BitsPerComponent", 8))
        if predictor == 2:
            return apply_tiff_predictor(*shape, bits, data)
        if predictor >= 10:
            return apply_png_predictor(predictor, *shape, bits, data)
    except (TypeError, ValueError):
        pass
    return data
