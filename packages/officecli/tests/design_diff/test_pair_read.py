"""read_pair: the before workbook read in a child process, errors exactly as sequentially."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from officecli.design_diff.pair_read import PARALLEL_MIN_BYTES, read_pair


class BadFile(Exception):
    pass


def pid_and_head(path: str) -> tuple[int, bytes]:
    """The reading process and the file's first bytes; a file starting 'bad' raises."""
    head = Path(path).read_bytes()[:3]
    if head == b"bad":
        raise BadFile(Path(path).name)
    return os.getpid(), head


def _file(tmp_path: Path, name: str, head: bytes, size: int = PARALLEL_MIN_BYTES) -> str:
    path = tmp_path / name
    path.write_bytes(head + b"x" * (size - len(head)))
    return str(path)


def test_large_files_read_before_in_a_child(tmp_path: Path) -> None:
    before, after = _file(tmp_path, "a", b"old"), _file(tmp_path, "b", b"new")
    (old_pid, old), (new_pid, new) = read_pair(pid_and_head, before, after)
    assert (old, new) == (b"old", b"new")
    assert new_pid == os.getpid()
    assert old_pid != os.getpid()


def test_small_files_read_here(tmp_path: Path) -> None:
    before, after = _file(tmp_path, "a", b"old", 10), _file(tmp_path, "b", b"new")
    (old_pid, _), (new_pid, _) = read_pair(pid_and_head, before, after)
    assert (old_pid, new_pid) == (os.getpid(), os.getpid())


def test_before_error_comes_first(tmp_path: Path) -> None:
    before, after = _file(tmp_path, "a", b"bad"), _file(tmp_path, "b", b"bad")
    with pytest.raises(BadFile, match=r"\Aa\Z"):
        read_pair(pid_and_head, before, after)


def test_after_error_when_before_reads(tmp_path: Path) -> None:
    before, after = _file(tmp_path, "a", b"old"), _file(tmp_path, "b", b"bad")
    with pytest.raises(BadFile, match=r"\Ab\Z"):
        read_pair(pid_and_head, before, after)


def test_before_error_alone(tmp_path: Path) -> None:
    before, after = _file(tmp_path, "a", b"bad"), _file(tmp_path, "b", b"new")
    with pytest.raises(BadFile, match=r"\Aa\Z"):
        read_pair(pid_and_head, before, after)
