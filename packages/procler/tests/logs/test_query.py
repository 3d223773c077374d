from __future__ import annotations

import re
from pathlib import Path
from typing import TypedDict, Unpack

import pytest

from agentcli.errors import UsageError
from procler.logs.options import RunSpec
from procler.logs.query import (
    CurrentRun,
    compile_grep,
    last_lines,
    parse_run,
    parse_since,
    query,
)
from procler.logs.store import LogStore
from procler.patterns import Pattern


@pytest.fixture
def runs_dir(logs_dir: Path) -> Path:
    """Three runs of `app`: r1 a, r1 b | r2 a (stderr) | r3 a, r3 b."""
    with LogStore(logs_dir) as store:
        store.append_many("app", 100.0, "stdout", 1, ["r1 a", "r1 b"])
        store.append("app", 200.0, "stderr", 2, "r2 a")
        store.append_many("app", 300.0, "stdout", 3, ["r3 a", "r3 b"])
    return logs_dir


class Filters(TypedDict, total=False):
    """query's keyword arguments, as these tests give them."""

    tail: int | None
    since: float | None
    until: float | None
    stream: str | None
    grep: Pattern | None
    run: RunSpec
    current_run: CurrentRun


def texts(
    directory: Path, process: str | list[str] = "app", **filters: Unpack[Filters]
) -> list[str]:
    return [line["text"] for line in query(directory, process, **filters).lines]


@pytest.mark.parametrize(
    ("run", "current_run", "expected"),
    [
        ("current", None, ["r3 a", "r3 b"]),
        ("current", 3, ["r3 a", "r3 b"]),
        ("previous", 3, ["r2 a"]),
        ("previous", None, ["r2 a"]),
        (1, None, ["r1 a", "r1 b"]),
        ("all", None, ["r1 a", "r1 b", "r2 a", "r3 a", "r3 b"]),
        ("current", 4, []),  # started again, no output yet
        ("previous", 4, ["r3 a", "r3 b"]),
        ("previous", 1, []),
    ],
)
def test_run_selection(
    runs_dir: Path, run: RunSpec, current_run: int | None, expected: list[str]
) -> None:
    assert texts(runs_dir, run=run, current_run=current_run) == expected


def test_line_objects_are_exactly_ts_stream_run_text(runs_dir: Path) -> None:
    assert query(runs_dir, "app", run=2).lines == [
        {"ts": "1970-01-01T00:03:20.000000Z", "stream": "stderr", "run": 2, "text": "r2 a"}
    ]


def test_tail_keeps_the_newest_lines_and_says_when_it_cut(runs_dir: Path) -> None:
    result = query(runs_dir, "app", tail=2, run="all")
    assert ([line["text"] for line in result.lines], result.truncated) == (["r3 a", "r3 b"], True)
    assert query(runs_dir, "app", tail=5, run="all").truncated is False
    assert query(runs_dir, "app", tail=None, run="all").truncated is False
    assert query(runs_dir, "app", tail=0, run="all").lines == []


def test_since_and_until_are_inclusive_boundaries(runs_dir: Path) -> None:
    assert texts(runs_dir, run="all", since=200.0, until=300.0) == ["r2 a", "r3 a", "r3 b"]
    assert texts(runs_dir, run="all", since=200.000001) == ["r3 a", "r3 b"]
    assert texts(runs_dir, run="all", until=199.999999) == ["r1 a", "r1 b"]
    assert texts(runs_dir, run="all", since=301.0) == []


def test_time_and_run_bounds_across_many_index_blocks_and_segments(logs_dir: Path) -> None:
    with LogStore(logs_dir, max_size=300_000, max_files=100) as store:
        for i in range(20000):
            store.append("app", 1000.0 + i / 1000, "stdout", 1 + i // 5000, f"line {i:05d} " * 4)
    assert len(list((logs_dir / "app").glob("*.log"))) == 6
    found = texts(logs_dir, run="all", tail=None, since=1007.5, until=1012.499)
    assert found == [f"line {i:05d} " * 4 for i in range(7500, 12500)]
    result = query(logs_dir, "app", run=2, tail=3)
    assert [line["text"] for line in result.lines] == [
        f"line {i:05d} " * 4 for i in (9997, 9998, 9999)
    ]
    assert result.truncated is True
    assert len(texts(logs_dir, run="previous", tail=None)) == 5000
    assert texts(logs_dir, run=1, tail=1, until=1000.0) == ["line 00000 " * 4]


def test_stream_and_grep_filters(runs_dir: Path) -> None:
    assert texts(runs_dir, run="all", stream="stderr") == ["r2 a"]
    assert texts(runs_dir, run="all", grep=re.compile(r"^r[13] b$")) == ["r1 b", "r3 b"]
    assert texts(runs_dir, run="all", grep=re.compile("r3"), stream="stderr") == []


def test_several_processes_interleave_by_time_with_their_names(logs_dir: Path) -> None:
    with LogStore(logs_dir) as store:
        store.append("web", 1.0, "stdout", 1, "web 1")
        store.append("db", 2.0, "stdout", 4, "db 2")
        store.append("web", 3.0, "stderr", 1, "web 3")
    result = query(logs_dir, ["web", "db"], tail=2, run="current", current_run={"web": 1, "db": 4})
    assert [(line["process"], line["text"]) for line in result.lines] == [
        ("db", "db 2"),
        ("web", "web 3"),
    ]
    assert result.truncated is True


def test_a_process_without_logs_answers_no_lines(logs_dir: Path) -> None:
    result = query(logs_dir, "never-started")
    assert (result.lines, result.truncated) == ([], False)


def test_no_process_asked_answers_no_lines(logs_dir: Path) -> None:
    """`logs --all` of a config with no process asks for an empty list."""
    result = query(logs_dir, [])
    assert (result.lines, result.truncated, result.more, result.cursor) == ([], False, False, {})


def test_last_lines_of_a_failed_run(runs_dir: Path) -> None:
    assert last_lines(runs_dir, "app", run=2) == ["r2 a"]
    assert last_lines(runs_dir, "app", run=3, stream="stdout", n=1) == ["r3 b"]


def test_parse_since_accepts_durations_and_iso_times() -> None:
    assert parse_since("5m", now=1000.0) == 700.0
    assert parse_since("1h30m", now=10000.0) == 4600.0
    assert parse_since("2024-05-01T12:00:00Z", now=0.0) == 1714564800.0
    assert parse_since("2024-05-01T12:00:00", now=0.0) == 1714564800.0
    assert parse_since("2024-05-01T14:00:00.5+02:00", now=0.0) == 1714564800.5


def test_parse_since_refuses_other_text_with_a_usage_error() -> None:
    with pytest.raises(UsageError) as caught:
        parse_since("yesterday", now=0.0)
    assert caught.value.message == (
        "invalid time 'yesterday': expected a duration or an ISO-8601 timestamp"
    )
    assert caught.value.exit_code == 2


def test_an_invalid_grep_regex_is_a_usage_error_with_the_regex_message() -> None:
    with pytest.raises(UsageError) as caught:
        compile_grep("(unclosed")
    assert caught.value.message == ("invalid --grep regex '(unclosed': missing ): (unclosed")
    assert caught.value.code == "USAGE"


def test_grep_runs_in_linear_time_and_refuses_lookaround() -> None:
    nested = compile_grep("^(a+)+$")  # exponential with a backtracking engine
    assert nested.search("a" * 5000 + "b") is None
    with pytest.raises(UsageError) as caught:
        compile_grep("(?=x)")
    assert caught.value.message == "invalid --grep regex '(?=x)': invalid perl operator: (?="


def test_parse_run_and_stream_validation() -> None:
    assert [parse_run(t) for t in ("current", "previous", "all", "7")] == [
        "current",
        "previous",
        "all",
        7,
    ]
    for bad in ("0", "last", "-1"):
        with pytest.raises(UsageError):
            parse_run(bad)
    with pytest.raises(UsageError, match="invalid --stream 'both'"):
        query(Path("/nonexistent"), "app", stream="both")
