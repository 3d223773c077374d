"""A damaged zip member is a broken file (exit 2) with the error zipfile's read gives,
whether the member is read whole or streamed through the XML scan."""

from __future__ import annotations

import zipfile
import zlib
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


def _zipfile_error(path: Path) -> str:
    """What a read through zipfile's stream says of the member (the reader's message)."""
    with zipfile.ZipFile(path) as zf:
        info = zf.getinfo(NAME)
        try:
            with zf.open(info) as fh:
                data = fh.read(info.file_size + 1)
        except (zipfile.BadZipFile, OSError, EOFError, zlib.error) as exc:
            return f"book.xlsx: member {NAME} is damaged ({exc})"
    assert len(data) > info.file_size, "the member was not damaged"
    return f"book.xlsx: member {NAME} is larger than declared"


@pytest.mark.parametrize("where", ["data", "crc", "header", "size"])
def test_a_damaged_member_gets_the_error_of_zipfiles_read(tmp_path: Path, where: str) -> None:
    """A stream that cannot be inflated (zlib.error) is a broken file, not an unexpected
    error (exit 3) as it was."""
    path = _zip(tmp_path / "book.xlsx")
    with zipfile.ZipFile(path) as zf:
        info = zf.getinfo(NAME)
    raw = path.read_bytes()
    local = info.header_offset
    start = local + 30 + int.from_bytes(raw[local + 26 : local + 28], "little")
    start += int.from_bytes(raw[local + 28 : local + 30], "little")
    central = raw.rfind(b"PK\x01\x02")
    if where == "data":  # a stream that cannot be inflated
        _damage(path, start + 5, 0x55)
    elif where == "crc":  # the central directory's CRC no longer matches
        _damage(path, central + 16, 1)
    elif where == "header":  # the local header's signature
        _damage(path, local, 1)
    else:  # the central directory declares fewer bytes than the member holds
        _damage(path, central + 25, -1)
    expected = _zipfile_error(path)
    with Package(path) as pkg, pytest.raises((BrokenFileError, UnsafeFileError)) as caught:
        pkg.read(NAME)
    assert caught.value.message == expected


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
    assert caught.value.message.startswith(f"book.xlsx:{NAME}: member is damaged (Error -3 ")
