"""A damaged zip member is a broken (or unsafe) file, exit 2, whether the member is read
whole, a chunk at a time or streamed through the XML scan."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from officecli.readers.safety import BrokenFileError, Package, UnsafeFileError

NAME = "xl/worksheets/sheet1.xml"


class _Ignore:
    def start(self, name: str, attrs: dict[str, str]) -> None:
        pass

    def end(self, name: str) -> None:
        pass

    def data(self, text: str) -> None:
        pass


def _zip(path: Path) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("first.xml", b"<a/>")
        zf.writestr(NAME, b"<sheetData>" + b"<row r='1'/>" * 2000 + b"</sheetData>")
    return path


def _damage(path: Path, at: int, change: int) -> None:
    raw = bytearray(path.read_bytes())
    raw[at] = (raw[at] + change) % 256
    path.write_bytes(bytes(raw))


def _data_start(path: Path) -> int:
    """Where the member's compressed bytes start (after its local header)."""
    with zipfile.ZipFile(path) as zf:
        local = zf.getinfo(NAME).header_offset
    raw = path.read_bytes()
    sizes = int.from_bytes(raw[local + 26 : local + 28], "little")
    return local + 30 + sizes + int.from_bytes(raw[local + 28 : local + 30], "little")


DAMAGED = f"book.xlsx: member {NAME} is damaged"


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        ("data", f"{DAMAGED} (Error -3 while decompressing data: "),
        ("crc", f"{DAMAGED} (bad CRC-32)"),
        ("header", f"{DAMAGED} (bad magic number for its local header)"),
        ("name", f"{DAMAGED} (its local header names another file)"),
        ("size", f"book.xlsx: member {NAME} is larger than declared"),
        ("short", f"{DAMAGED} (its stream ends early)"),
    ],
)
def test_a_damaged_member_is_a_broken_or_unsafe_file(
    tmp_path: Path, where: str, expected: str
) -> None:
    """Each check of the member read (zipfile's checks, made by the reader that inflates
    with zlib-ng) gives a file error (exit 2); a stream that cannot be inflated was an
    unexpected error (exit 3)."""
    path = _zip(tmp_path / "book.xlsx")
    with zipfile.ZipFile(path) as zf:
        local = zf.getinfo(NAME).header_offset
    central = path.read_bytes().rfind(b"PK\x01\x02")
    if where == "data":  # a stream that cannot be inflated
        _damage(path, _data_start(path) + 5, 0x55)
    elif where == "crc":  # the central directory's CRC no longer matches
        _damage(path, central + 16, 1)
    elif where == "header":  # the local header's signature
        _damage(path, local, 1)
    elif where == "name":  # the local header's name differs from the directory's
        _damage(path, local + 30, 1)
    elif where == "size":  # the central directory declares fewer bytes than the member holds
        _damage(path, central + 25, -1)
    else:  # the central directory declares more bytes than the member holds
        _damage(path, central + 25, 1)
    with Package(path) as pkg, pytest.raises((BrokenFileError, UnsafeFileError)) as caught:
        pkg.read(NAME)
    assert caught.value.message.startswith(expected)
    assert (caught.value.message == expected) is (where != "data")


def test_members_read_a_chunk_at_a_time_in_turn_read_whole(tmp_path: Path) -> None:
    """Two members read in turns (a sheet's scan pauses while its shared strings are read)
    each give their own bytes; so does a stored member, read by zipfile's stream."""
    first = b"<a>" + b"x" * 300_000 + b"</a>"
    second = bytes(range(256)) * 2_000
    with zipfile.ZipFile(tmp_path / "book.xlsx", "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("first.xml", first)
        zf.writestr("second.bin", second)
        zf.writestr("stored.xml", first, compress_type=zipfile.ZIP_STORED)
    names = ("first.xml", "second.bin", "stored.xml")
    got: dict[str, list[bytes]] = {name: [] for name in names}
    with Package(tmp_path / "book.xlsx") as pkg:
        streams = {name: pkg.chunks(name, 4096) for name in names}
        while streams:
            for name, stream in list(streams.items()):
                chunk = next(stream, None)
                if chunk is None:
                    del streams[name]
                else:
                    got[name].append(chunk)
    assert [b"".join(got[name]) for name in names] == [first, second, first]
    assert {len(chunk) for parts in got.values() for chunk in parts[:-1]} == {4096}


def test_a_stream_that_cannot_be_inflated_is_a_broken_file_when_scanned(tmp_path: Path) -> None:
    path = _zip(tmp_path / "book.xlsx")
    with zipfile.ZipFile(path) as zf:
        info = zf.getinfo(NAME)
    raw = path.read_bytes()
    local = info.header_offset
    start = local + 30 + int.from_bytes(raw[local + 26 : local + 28], "little")
    _damage(path, start + int.from_bytes(raw[local + 28 : local + 30], "little") + 5, 0x55)
    with Package(path) as pkg, pytest.raises(BrokenFileError) as caught:
        pkg.scan_xml(NAME, _Ignore())
    assert caught.value.message.startswith(f"{DAMAGED} (Error -3 while decompressing data: ")
