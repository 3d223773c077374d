"""A log health check and `ready_log_line` match whole lines, never a 64 KiB chunk of one;
a line longer than MAX_MATCHED_LINE never matches."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st
from procler_testkit.harness import PY, Project, wait_for

from procler.contexts.base import OutputBatch
from procler.logs.capture import CHUNK_LIMIT, LineSplitter
from procler.supervisor.whole_lines import MAX_MATCHED_LINE, WholeLines

PATIENT = "interval: 100ms, timeout: 1s, retries: 1, start_period: 3s"


def printer(text: str) -> str:
    """A process that prints `text` (a Python expression) as one line, then waits."""
    return f'[{PY}, -c, "import sys, time; sys.stdout.write({text} + chr(10)); sys.stdout.flush(); time.sleep(600)"]'


def project_with(make_project: Callable[[str], Project], line: str) -> Project:
    return make_project(
        f"""version: 1
processes:
  checked:
    args: {printer(line)}
    healthcheck: {{log: '^a+$', {PATIENT}}}
  ready:
    args: {printer(line)}
    ready_log_line: '^a+$'
"""
    )


def verdicts(p: Project) -> tuple[str, bool]:
    """The log check's verdict once given, and whether the ready line was seen."""
    assert wait_for(lambda: p.ok("status", "checked")["status"] != "running", timeout=20)
    return p.ok("status", "checked")["status"], p.ok("status", "ready")["log_ready"]


def test_a_chunk_that_matches_is_not_a_matching_line(
    make_project: Callable[[str], Project],
) -> None:
    # The first 64 KiB chunk is all a's; the line ends in '!'.
    p = project_with(make_project, "'a' * 200000 + '!'")
    p.ok("start", "checked")
    p.ok("start", "ready")
    assert verdicts(p) == ("unhealthy", False)
    assert p.ok("status", "checked")["health"]["last_output"] == "no matching line yet"


def test_a_line_longer_than_a_chunk_matches_on_its_whole_text(
    make_project: Callable[[str], Project],
) -> None:
    p = project_with(make_project, "'a' * 200000")
    p.ok("start", "checked")
    p.ok("start", "ready")
    assert verdicts(p) == ("healthy", True)
    assert p.ok("status", "checked")["health"]["last_output"] == "a" * 200


def test_a_line_longer_than_the_bound_never_matches(
    make_project: Callable[[str], Project],
) -> None:
    p = project_with(make_project, f"'a' * {MAX_MATCHED_LINE + 1}")
    p.ok("start", "checked")
    p.ok("start", "ready")
    assert verdicts(p) == ("unhealthy", False)


def test_ready_log_line_is_matched_in_linear_time(
    make_project: Callable[[str], Project],
) -> None:
    # A backtracking engine takes 2^34 steps for '^(a+)+$' on 34 a's and a b (it pinned the
    # supervisor's loop: status would not answer); then the ready line comes.
    p = make_project(
        f"""version: 1
processes:
  ready:
    args: {printer("'a' * 34 + 'b' + chr(10) + 'aaa'")}
    ready_log_line: '^(a+)+$'
"""
    )
    p.ok("start", "ready", "--timeout", "0s")
    pid = p.supervisor_pid()
    try:
        assert wait_for(lambda: p.ok("status", "ready")["log_ready"], timeout=20)
    except AssertionError:
        os.kill(pid, signal.SIGKILL)  # pinned for hours: its sentinel then ends the process
        raise


LINE = st.text(st.sampled_from("ab\u00e9\u4e2d"), max_size=30).map(lambda s: s * 7000)


@settings(max_examples=30, deadline=None, derandomize=True, database=None)
@given(
    lines=st.lists(LINE, min_size=1, max_size=8),
    cuts=st.lists(st.integers(1, 300_000), max_size=12),
    other=st.booleans(),
)
def test_whole_lines_are_what_was_printed_whatever_the_reads(
    lines: list[str], cuts: list[int], other: bool
) -> None:
    """Property: the real splitter's batches, read in any sizes and interleaved with another
    stream's, come out as the lines printed, those over the bound left out."""
    data = "".join(line + "\n" for line in lines).encode()
    splitter, whole, out = LineSplitter(), WholeLines(), []
    start = 0
    for cut in [*sorted(cuts), len(data)]:
        for texts, partial in splitter.feed(data[start:cut]):
            assert all(len(t.encode()) <= CHUNK_LIMIT for t in texts)
            out += whole.take(OutputBatch("stdout", texts, 0.0, partial))
            if other:  # a whole line of the other stream between two chunks
                assert whole.take(OutputBatch("stderr", ["x"], 0.0)) == ["x"]
        start = max(start, cut)
    assert out == [line for line in lines if len(line) <= MAX_MATCHED_LINE]
