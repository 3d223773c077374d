"""The before workbook read in a forked child: same grids, same errors, and a clean fallback."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from officecli_testkit.design_diff_helpers import api_rows, write_book
from officecli_testkit.threads import count_threads_from_here

from officecli.design_diff import pair_read
from officecli.design_diff.pair_read import pack_grids, read_pair, unpack_grids
from officecli.design_diff.workbook import workbook_grids
from officecli.readers.forked import ForkedCall
from officecli.readers.grid import SheetGrid
from officecli.readers.safety import BrokenFileError

MAX_CELLS = 10_000
real_spare_core = pair_read.spare_core  # the fixture below stands in for it


def read_here(path: str) -> list[SheetGrid]:
    return workbook_grids(path, max_cells=MAX_CELLS)


def as_read(grids: list[SheetGrid]) -> list[SheetGrid]:
    return grids


def reader_pid(path: str) -> list[SheetGrid]:
    """The grids with the reading process's id as the first sheet's name."""
    grids = read_here(path)
    grids[0].name = str(os.getpid())
    return grids


@pytest.fixture(autouse=True)
def spare_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """A core free whatever the machine's load, so that the child is used."""
    monkeypatch.setattr(pair_read, "spare_core", lambda: True)
    count_threads_from_here(monkeypatch)


@pytest.fixture
def books(tmp_path: Path) -> tuple[str, str]:
    before = write_book(tmp_path / "before.xlsx", {"S": api_rows(3), "T": [["a", "b"], [1, 2]]})
    after = write_book(tmp_path / "after.xlsx", {"S": api_rows(4)}, merges={"S": ["C2:D2"]})
    return str(before), str(after)


def test_grids_packed_by_marshal_come_back_equal() -> None:
    grid = SheetGrid("S", hidden=True, cells={(0, 1): "x"}, merges=[(0, 0, 1, 1)])
    grid.hidden_rows, grid.hidden_cols, grid.comments = {3}, {2}, [("B1", "note")]
    dense = SheetGrid("D", rows=[["a", ""], ["", "b"]])
    assert unpack_grids(pack_grids([grid, dense])) == [grid, dense]


def test_the_before_workbook_is_read_by_the_child(books: tuple[str, str]) -> None:
    before, after = books
    old, new = read_pair(reader_pid, as_read, before, after)
    here = str(os.getpid())
    assert (old[0].name != here, new[0].name) == (True, here)
    old[0].name = new[0].name = "S"
    assert (old, new) == (read_here(before), read_here(after))


def test_errors_come_in_the_order_of_a_sequential_read(
    tmp_path: Path, books: tuple[str, str]
) -> None:
    good, _ = books
    bad = tmp_path / "bad.xlsx"
    bad.write_bytes(b"not a zip")
    worse = tmp_path / "worse.xlsx"
    worse.write_bytes(b"not a zip either")
    messages = []
    for before, after in ((bad, good), (good, worse), (bad, worse)):
        with pytest.raises(BrokenFileError) as caught:
            read_pair(read_here, as_read, str(before), str(after))
        messages.append((caught.value.message, caught.value.code))
    zip_error = "not a valid zip package (File is not a zip file)"
    assert messages == [
        (f"bad.xlsx: {zip_error}", "BROKEN_FILE"),
        (f"worse.xlsx: {zip_error}", "BROKEN_FILE"),
        (f"bad.xlsx: {zip_error}", "BROKEN_FILE"),
    ]


def test_without_an_answer_the_before_workbook_is_read_here(books: tuple[str, str]) -> None:
    before, after = books
    here = str(os.getpid())

    def dies_in_the_child(path: str) -> list[SheetGrid]:
        if str(os.getpid()) != here:
            os.kill(os.getpid(), signal.SIGKILL)
        return reader_pid(path)

    old, new = read_pair(dies_in_the_child, as_read, before, after)
    assert (old[0].name, new[0].name) == (here, here)


def test_an_interrupted_read_leaves_no_child(
    books: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    before, after = books
    read_fd, write_fd = os.pipe()
    calls: list[ForkedCall] = []

    class Recorded(ForkedCall):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]
            calls.append(self)
            self.child = self.pid

    def read(path: str) -> list[SheetGrid]:
        if path == after:
            raise KeyboardInterrupt
        os.read(read_fd, 1)  # the child waits until it is killed
        return []

    monkeypatch.setattr(pair_read, "ForkedCall", Recorded)
    try:
        with pytest.raises(KeyboardInterrupt):
            read_pair(read, as_read, before, after)
    finally:
        os.close(read_fd)
        os.close(write_fd)
    with pytest.raises(ChildProcessError):
        os.waitpid(calls[0].child, os.WNOHANG)
    assert (calls[0].pid, calls[0].status) == (0, -signal.SIGKILL)


def test_on_a_busy_machine_both_are_read_here(
    books: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    before, after = books
    monkeypatch.setattr(pair_read, "spare_core", lambda: False)
    old, new = read_pair(reader_pid, as_read, before, after)
    assert (old[0].name, new[0].name) == (str(os.getpid()), str(os.getpid()))


@pytest.mark.parametrize(
    ("load", "cores", "spare"), [(0.9, 2, True), (2.99, 2, True), (3.0, 2, False), (None, 2, True)]
)
def test_a_core_is_spare_while_the_load_average_is_below_the_cores_plus_one(
    monkeypatch: pytest.MonkeyPatch, load: float | None, cores: int, spare: bool
) -> None:
    def loadavg() -> tuple[float, float, float]:
        if load is None:
            raise OSError("no load average here")
        return load, 0.0, 0.0

    monkeypatch.setattr(pair_read.os, "getloadavg", loadavg)
    monkeypatch.setattr(pair_read.os, "sched_getaffinity", lambda _pid: set(range(cores)))
    assert real_spare_core() is spare
