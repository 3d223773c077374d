"""A member read in many chunks has the C allocator keep its freed memory (heap.py)."""

from __future__ import annotations

import platform
import zipfile
from pathlib import Path

import pytest

from officecli.readers import heap
from officecli.readers.safety import LARGE_MEMBER_CHUNKS, Package


def test_glibc_takes_the_top_pad() -> None:
    assert heap.set_top_pad() is (platform.libc_ver()[0] == "glibc")


@pytest.mark.parametrize("method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED])
def test_only_a_member_of_more_than_a_few_chunks_keeps_the_freed_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, method: int
) -> None:
    asked: list[str] = []
    monkeypatch.setattr(heap, "keep_freed_memory", lambda: asked.append("kept"))
    path = tmp_path / "p.zip"
    size = 1024
    with zipfile.ZipFile(path, "w", method) as z:
        z.writestr("small", b"s" * LARGE_MEMBER_CHUNKS * size)
        z.writestr("large", b"l" * (LARGE_MEMBER_CHUNKS * size + 1))
    with Package(path) as pkg:
        small = b"".join(pkg.chunks("small", size))
        seen = list(asked)
        large = b"".join(pkg.chunks("large", size))
    assert (len(small), seen, len(large), asked) == (4096, [], 4097, ["kept"])
