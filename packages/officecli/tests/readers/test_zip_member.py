"""A zip member read in one inflate (zip_member.py): the bytes zipfile gives, and for a
damaged member the error zipfile's read gives."""

from __future__ import annotations

import zipfile
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from officecli.readers.safety import BrokenFileError, Package, UnsafeFileError
from officecli.readers.zip_member import member_bytes

NAME = "xl/worksheets/sheet1.xml"


def _zip(path: Path, data: bytes, method: int = zipfile.ZIP_DEFLATED) -> Path:
    with zipfile.ZipFile(path, "w", method) as zf:
        zf.writestr("first.xml", b"<a/>")
        zf.writestr(NAME, data)
    return path


def test_a_plain_member_is_read_without_zipfile_streams(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = b"<sheetData>" + b"<row/>" * 50_000 + "値".encode() + b"</sheetData>"
    stored = _zip(tmp_path / "stored.xlsx", data, zipfile.ZIP_STORED)
    deflated = _zip(tmp_path / "deflated.xlsx", data)

    def refused(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("zipfile's stream read a plain member")

    monkeypatch.setattr(zipfile.ZipFile, "open", refused)
    for path in (stored, deflated):
        with Package(path) as pkg:
            assert pkg.read(NAME) == data
            assert pkg.read("first.xml") == b"<a/>"


@settings(max_examples=40, deadline=None)
@given(
    data=st.binary(max_size=3000),
    method=st.sampled_from([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED]),
    utf8_name=st.booleans(),
)
def test_member_bytes_are_zipfiles_bytes(
    tmp_path_factory: pytest.TempPathFactory, data: bytes, method: int, utf8_name: bool
) -> None:
    path = tmp_path_factory.mktemp("zip") / "book.xlsx"
    name = "xl/シート.xml" if utf8_name else NAME
    with zipfile.ZipFile(path, "w", method) as zf:
        zf.writestr(name, data)
    with zipfile.ZipFile(path) as zf, open(path, "rb") as fh:
        info = zf.getinfo(name)
        assert member_bytes(fh.fileno(), info) == zf.read(name) == data


def _damage(path: Path, at: int, byte: int) -> None:
    raw = bytearray(path.read_bytes())
    raw[at] = byte
    path.write_bytes(bytes(raw))


def _member_data_offset(path: Path) -> int:
    with zipfile.ZipFile(path) as zf:
        info = zf.getinfo(NAME)
    raw = path.read_bytes()
    name_size = int.from_bytes(raw[info.header_offset + 26 : info.header_offset + 28], "little")
    extra_size = int.from_bytes(raw[info.header_offset + 28 : info.header_offset + 30], "little")
    return info.header_offset + 30 + name_size + extra_size


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
    """A stream that cannot be inflated is a broken file (exit 2), not an unexpected error."""
    path = _zip(tmp_path / "book.xlsx", b"<sheetData>" + b"<row r='1'/>" * 2000 + b"</sheetData>")
    start = _member_data_offset(path)
    central = path.read_bytes().rfind(b"PK\x01\x02")
    with zipfile.ZipFile(path) as zf:
        info = zf.getinfo(NAME)
    if where == "data":  # a stream that cannot be inflated
        _damage(path, start + 5, path.read_bytes()[start + 5] ^ 0xFF)
    elif where == "crc":  # the central directory's CRC no longer matches
        _damage(path, central + 16, path.read_bytes()[central + 16] ^ 0xFF)
    elif where == "header":  # the local header's signature
        _damage(path, info.header_offset, ord("X"))
    else:  # the central directory declares fewer bytes than the member holds
        _damage(path, central + 25, path.read_bytes()[central + 25] - 1)
    expected = _zipfile_error(path)
    with Package(path) as pkg, pytest.raises((BrokenFileError, UnsafeFileError)) as caught:
        pkg.read(NAME)
    assert caught.value.message == expected


def test_an_encrypted_member_is_left_to_zipfile(tmp_path: Path) -> None:
    path = _zip(tmp_path / "book.xlsx", b"<a/>")
    with zipfile.ZipFile(path) as zf, open(path, "rb") as fh:
        info = zf.getinfo(NAME)
        info.flag_bits |= 0x1
        assert member_bytes(fh.fileno(), info) is None
        info.flag_bits &= ~0x1
        info.compress_type = zipfile.ZIP_BZIP2
        assert member_bytes(fh.fileno(), info) is None
