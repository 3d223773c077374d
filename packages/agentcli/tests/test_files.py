"""Input files are read only when they are regular files, and never past a bound: a FIFO,
/dev/stdin or /dev/zero named as an input is refused at once, whatever waits behind it."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from agentcli.errors import FileTooLargeError, NotRegularFileError
from agentcli.files import check_regular, open_regular, read_regular, read_regular_text


@pytest.fixture
def specials(tmp_path: Path) -> dict[str, Path]:
    """A FIFO nobody writes to, a symlink to it, a character device, a folder, a socket."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "link").symlink_to(fifo)
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(tmp_path / "sock"))
    server.close()
    (tmp_path / "folder").mkdir()
    return {
        "fifo": fifo,
        "link": tmp_path / "link",
        "zero": Path("/dev/zero"),
        "folder": tmp_path / "folder",
        "sock": tmp_path / "sock",
    }


KINDS = {
    "fifo": "a pipe (FIFO)",
    "link": "a pipe (FIFO)",
    "zero": "a character device",
    "folder": "a folder",
    "sock": "a socket",
}


@pytest.mark.timeout(20)
@pytest.mark.parametrize("name", sorted(KINDS))
def test_anything_but_a_regular_file_is_refused_without_reading(
    specials: dict[str, Path], name: str
) -> None:
    path = specials[name]
    for read in (
        lambda: open_regular(path, "the input"),
        lambda: read_regular(path, 1 << 20, "the input"),
        lambda: check_regular(path, "the input"),
    ):
        with pytest.raises(NotRegularFileError) as caught:
            read()
        assert caught.value.message == f"the input: is {KINDS[name]}, not a regular file"
        assert (caught.value.code, caught.value.exit_code) == ("NOT_REGULAR_FILE", 2)


def test_a_regular_file_is_read_whole_within_its_bound(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_bytes("é\n".encode() * 10)
    assert read_regular(path, 30) == "é\n".encode() * 10
    assert read_regular_text(path, 30, "a.txt") == "é\n" * 10
    with pytest.raises(FileTooLargeError) as caught:
        read_regular(path, 29, "a.txt")
    assert caught.value.message == "a.txt: larger than 29 bytes"
    with open_regular(path) as fh:
        assert fh.read(2) == "é".encode()


def test_a_missing_path_is_left_to_the_caller(tmp_path: Path) -> None:
    check_regular(tmp_path / "missing")
    with pytest.raises(FileNotFoundError):
        read_regular(tmp_path / "missing", 10)
