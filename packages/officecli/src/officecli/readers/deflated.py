"""A deflated zip member's bytes, inflated by zlib-ng (about 3x zlib's speed, with its
faster CRC-32): a workbook's sheets are tens of megabytes once inflated, and inflating them
was a sixth of a design-diff run. The checks are zipfile's: the local header's signature and
name, never more than the declared size, the stream complete, and the CRC-32.

The member is read with pread, at offsets of its own: other members may be read between two
chunks (a sheet's scan pauses while its shared strings are read)."""

from __future__ import annotations

import os
import struct

from zlib_ng import zlib_ng

from officecli.readers.errors import BrokenFileError, UnsafeFileError

TYPE_CHECKING = False  # typing is not loaded: a docx conversion never needs it
if TYPE_CHECKING:
    import zipfile
    from collections.abc import Iterator

LOCAL_HEADER = struct.Struct("<4s22xHH")  # signature, then (after 22 bytes) name and extra sizes
LOCAL_SIGNATURE = b"PK\x03\x04"
UTF8_NAME = 0x800  # general purpose flag: the name is UTF-8, else code page 437
READ = 1 << 18  # compressed bytes read at a time
INFLATE_ERROR: type[Exception] = zlib_ng.error  # type: ignore[assignment]  # the stub is wrong


def inflated_chunks(fd: int, info: zipfile.ZipInfo, size: int, label: str) -> Iterator[bytes]:
    """The member's bytes, `size` at a time."""

    def damaged(why: str) -> BrokenFileError:
        return BrokenFileError(f"{label}: member {info.filename} is damaged ({why})")

    header = os.pread(fd, LOCAL_HEADER.size, info.header_offset)
    if len(header) < LOCAL_HEADER.size or header[:4] != LOCAL_SIGNATURE:
        raise damaged("bad magic number for its local header")
    _signature, name_size, extra_size = LOCAL_HEADER.unpack(header)
    name = os.pread(fd, name_size, info.header_offset + LOCAL_HEADER.size)
    encoding = "utf-8" if info.flag_bits & UTF8_NAME else "cp437"
    if name.decode(encoding, "replace") != info.orig_filename:
        raise damaged("its local header names another file")
    at = info.header_offset + LOCAL_HEADER.size + name_size + extra_size
    left = info.compress_size
    inflater = zlib_ng.decompressobj(-15)
    pending = b""  # compressed bytes not inflated yet
    total = crc = 0
    try:
        while True:
            if not pending and left:
                pending = os.pread(fd, min(READ, left), at)
                if not pending:
                    raise damaged("it ends early")
                at += len(pending)
                left -= len(pending)
            chunk = inflater.decompress(pending, size)
            pending = inflater.unconsumed_tail
            if not chunk and (inflater.eof or not left):
                break
            total += len(chunk)
            if total > info.file_size:
                raise UnsafeFileError(f"{label}: member {info.filename} is larger than declared")
            crc = zlib_ng.crc32(chunk, crc)
            yield chunk
    except INFLATE_ERROR as exc:
        raise damaged(str(exc)) from None
    if not inflater.eof or total != info.file_size:
        raise damaged("its stream ends early")
    if crc != info.CRC:
        raise damaged("bad CRC-32")
