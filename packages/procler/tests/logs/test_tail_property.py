"""A tail answers, for any log and filters, exactly the newest matching lines: checked
against the lines as written, over logs of several processes, runs, streams and segments,
with tails smaller and larger than what matches, and (with `truncated`) whether older
matching lines were left out."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from procler.logs.options import RunSpec
from procler.logs.query import query
from procler.logs.store import LogStore
from procler.patterns import compile_pattern

# (process, run, stream, text): written in this order, one per millisecond
Written = tuple[str, int, str, str]

NAMES = ("api", "web")
written_lines = st.lists(
    st.tuples(
        st.sampled_from(NAMES),
        st.integers(min_value=0, max_value=2),  # added to the process's current run
        st.sampled_from(("stdout", "stderr")),
        st.sampled_from(("GET /", "POST /", "error", "ok")),
    ),
    max_size=120,
)


def _write(logs_dir: Path, lines: list[tuple[str, int, str, str]]) -> list[Written]:
    """Store the lines (runs only grow per process) in small segments; what was written."""
    runs = dict.fromkeys(NAMES, 1)
    kept: list[Written] = []
    with LogStore(logs_dir, max_size=400, max_files=10_000) as store:
        for i, (name, step, stream, text) in enumerate(lines):
            runs[name] += step
            store.append(name, i / 1000, stream, runs[name], f"{text} {i}")
            kept.append((name, runs[name], stream, f"{text} {i}"))
            if i % 7 == 6:
                store.flush()
    return kept


@settings(max_examples=150, deadline=None)
@given(
    lines=written_lines,
    tail=st.integers(min_value=1, max_value=40),
    processes=st.sampled_from((["api"], ["api", "web"])),
    stream=st.sampled_from((None, "stdout", "stderr")),
    grep=st.sampled_from((None, "GET|error", "ok")),
    run=st.sampled_from(("all", 1, 2, 4)),
)
def test_a_tail_is_the_newest_matching_lines_as_written(
    lines: list[tuple[str, int, str, str]],
    tail: int,
    processes: list[str],
    stream: str | None,
    grep: str | None,
    run: RunSpec,
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        logs_dir = Path(tmp)
        kept = _write(logs_dir, lines)
        result = query(
            logs_dir,
            processes,
            tail=tail,
            run=run,
            stream=stream,
            grep=None if grep is None else compile_pattern(grep),
        )
    matching = [
        (name, text)
        for name, line_run, line_stream, text in kept
        if name in processes
        and run in ("all", line_run)
        and (stream is None or line_stream == stream)
        and (grep is None or any(word in text for word in grep.split("|")))
    ]
    assert [(line["process"], line["text"]) for line in result.lines] == matching[-tail:]
    assert result.truncated == (len(matching) > tail)
    assert result.more is False
