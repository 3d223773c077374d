"""A zip member's bytes in one read, one inflate and one CRC, when nothing about it is
unusual: a third of the time zipfile takes (its reader copies its buffer at every step,
and zlib inflates and checks CRCs at half the speed of ISA-L).

Only the common case is read here: a member stored or deflated, not encrypted, whose
local header is where and what the central directory says, that inflates to exactly its
declared size with its declared CRC. Anything else gives None, and the caller reads the
member through zipfile, which raises what it raises for a damaged member.
"""

from __future__ import annotations

import os
import struct
import zipfile

LOCAL_HEADER = struct.Struct("<4s22xHH")  # signature; then the name's and extra's lengths
LOCAL_MAGIC = b"PK\x03\x04"
ENCRYPTED, UTF8_NAME = 0x1, 0x800  # general purpose flag bits


def member_bytes(fd: int, info: zipfile.ZipInfo) -> bytes | None:
    """The member's bytes, or None when zipfile must read it (see the module's doc).
    `fd` is read with pread: no shared file position is moved."""
    from isal import isal_zlib

    if info.flag_bits & ENCRYPTED or info.compress_type not in (
        zipfile.ZIP_STORED,
        zipfile.ZIP_DEFLATED,
    ):
        return None
    header = os.pread(fd, LOCAL_HEADER.size, info.header_offset)
    if len(header) < LOCAL_HEADER.size:
        return None
    magic, name_size, extra_size = LOCAL_HEADER.unpack(header)
    start = info.header_offset + LOCAL_HEADER.size
    name = os.pread(fd, name_size, start)
    encoding = "utf-8" if info.flag_bits & UTF8_NAME else "cp437"
    if magic != LOCAL_MAGIC or name != info.orig_filename.encode(encoding, "replace"):
        return None
    packed = os.pread(fd, info.compress_size, start + name_size + extra_size)
    if len(packed) != info.compress_size:
        return None
    if info.compress_type == zipfile.ZIP_STORED:
        data = packed
    else:
        inflater = isal_zlib.decompressobj(-15)
        try:  # never more than one byte past the declared size
            data = inflater.decompress(packed, info.file_size + 1)
        except Exception:  # noqa: BLE001 - whatever is wrong, zipfile's read tells it
            return None
        if not inflater.eof:
            return None
    if len(data) != info.file_size or isal_zlib.crc32(data) != info.CRC:
        return None
    return data
