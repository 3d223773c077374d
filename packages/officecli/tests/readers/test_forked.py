"""ForkedCall: the child's answer or typed error, no answer otherwise, never a zombie."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator

import pytest
from officecli_testkit.threads import count_threads_from_here

from officecli.design_diff.errors import WorkbookError
from officecli.readers import forked
from officecli.readers.forked import ForkedCall


@pytest.fixture(autouse=True)
def no_runner_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    count_threads_from_here(monkeypatch)


def reaped(pid: int) -> bool:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


@pytest.fixture
def blocked() -> Iterator[int]:
    """The read end of a pipe nobody writes to: a child reading it waits forever."""
    read_fd, write_fd = os.pipe()
    yield read_fd
    os.close(read_fd)
    os.close(write_fd)


def test_the_answer_comes_from_the_child_and_the_child_is_reaped() -> None:
    call = ForkedCall(lambda: str(os.getpid()).encode())
    pid = call.pid
    assert (call.answer(), pid != os.getpid(), call.status, reaped(pid)) == (
        str(pid).encode(),
        True,
        0,
        True,
    )


def test_the_childs_typed_error_is_raised_here_as_it_was() -> None:
    def work() -> bytes:
        raise WorkbookError("a.xlsx: damaged", suggestion="save it again", data={"file": "a"})

    call = ForkedCall(work)
    with pytest.raises(WorkbookError) as caught:
        call.answer()
    error = caught.value
    assert (error.message, error.suggestion, error.data, error.code, error.exit_code) == (
        "a.xlsx: damaged",
        "save it again",
        {"file": "a"},
        "INVALID_WORKBOOK",
        2,
    )


def test_an_untyped_error_or_a_dead_child_gives_no_answer() -> None:
    def bug() -> bytes:
        raise ValueError("a bug")

    def killed() -> bytes:
        os.kill(os.getpid(), signal.SIGKILL)
        return b"never"

    outcomes = []
    for work in (bug, killed):
        call = ForkedCall(work)
        pid = call.pid
        outcomes.append((call.answer(), call.status, reaped(pid)))
    assert outcomes == [(None, 1, True), (None, -signal.SIGKILL, True)]


def test_a_child_silent_past_the_deadline_is_killed_and_reaped(blocked: int) -> None:
    call = ForkedCall(lambda: os.read(blocked, 1))
    pid = call.pid
    assert (call.answer(wait=0.2), call.status, reaped(pid)) == (None, -signal.SIGKILL, True)


def test_close_kills_a_running_child(blocked: int) -> None:
    call = ForkedCall(lambda: os.read(blocked, 1))
    pid = call.pid
    call.close()
    assert (call.status, reaped(pid), call.answer()) == (-signal.SIGKILL, True, None)


def test_no_fork_while_other_threads_run() -> None:
    release = threading.Event()
    thread = threading.Thread(target=release.wait, args=(30,))
    thread.start()
    try:
        call = ForkedCall(lambda: b"x")
    finally:
        release.set()
        thread.join(30)
    assert (call.pid, call.answer()) == (0, None)


def test_a_refused_fork_leaves_no_pipe_open(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse() -> int:
        raise OSError("no more processes")

    before = sorted(os.listdir("/proc/self/fd"))
    monkeypatch.setattr(forked.os, "fork", refuse)
    call = ForkedCall(lambda: b"x")
    assert (call.pid, call.answer(), sorted(os.listdir("/proc/self/fd"))) == (0, None, before)
