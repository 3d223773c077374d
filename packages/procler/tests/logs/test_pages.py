"""An answer holds at most a page (MAX_ANSWER_LINES lines, MAX_ANSWER_BYTES of records):
a bigger tail is paged from its oldest line, each answer's cursor saying where the next
begins, so that the pages together are exactly the tail asked for."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from procler_testkit.config_helpers import run_procler, write_config

from agentcli.errors import UsageError
from procler.logs.query import MAX_ANSWER_BYTES, MAX_ANSWER_LINES, QueryResult, query
from procler.logs.scan import cursor_text, parse_cursor
from procler.logs.store import LogStore


def fill(logs_dir: Path, process: str, count: int, *, text: str = "{i}", t0: float = 0.0) -> None:
    """`count` lines of `process`, one per millisecond from t0, across many segments."""
    with LogStore(logs_dir, max_size=128 * 1024, max_files=10_000) as store:
        for start in range(0, count, 500):
            for i in range(start, min(start + 500, count)):
                store.append(process, t0 + i / 1000, "stdout", 1, text.format(i=i, p=process))
            store.flush()


def pages(logs_dir: Path, process: str | list[str], **options: Any) -> list[QueryResult]:
    """Every answer, following each cursor while `more` says so."""
    answers = [query(logs_dir, process, **options)]
    while answers[-1].more:
        answers.append(query(logs_dir, process, after=answers[-1].cursor, **options))
    return answers


def test_a_tail_bigger_than_a_page_is_paged_and_the_pages_are_the_tail(logs_dir: Path) -> None:
    fill(logs_dir, "app", 30_000)
    answers = pages(logs_dir, "app", tail=25_000, run="all")
    assert [len(a.lines) for a in answers] == [MAX_ANSWER_LINES, MAX_ANSWER_LINES, 5_000]
    # only the first answer counts back from the end: the older lines it left out
    assert [(a.truncated, a.more) for a in answers] == [(True, True), (False, True), (False, False)]
    texts = [line["text"] for a in answers for line in a.lines]
    assert texts == [str(i) for i in range(5_000, 30_000)]
    assert len(list((logs_dir / "app").glob("*.log"))) == 10  # pages cross segments


def test_pages_are_cut_by_bytes_too(logs_dir: Path) -> None:
    line = "x" * 60_000
    fill(logs_dir, "app", 600, text=line)
    answers = pages(logs_dir, "app", tail=600, run="all")
    sizes = [sum(len(x["text"]) for x in a.lines) for a in answers]
    assert all(size <= MAX_ANSWER_BYTES for size in sizes)
    assert [len(a.lines) for a in answers] == [69] * 8 + [48]  # 60,060-byte records
    assert sum(len(a.lines) for a in answers) == 600


def test_a_tail_of_several_processes_is_paged_exactly(logs_dir: Path) -> None:
    fill(logs_dir, "api", 9_000, text="{p} {i}")
    fill(logs_dir, "web", 9_000, text="{p} {i}", t0=0.0005)  # interleaved with api's
    answers = pages(logs_dir, ["api", "web"], tail=15_000, run="all")
    lines = [(x["process"], x["text"]) for a in answers for x in a.lines]
    assert len(lines) == 15_000 and [len(a.lines) for a in answers] == [10_000, 5_000]
    everything = sorted(
        [(i / 1000, 0, ("api", f"api {i}")) for i in range(9_000)]
        + [(0.0005 + i / 1000, 1, ("web", f"web {i}")) for i in range(9_000)]
    )
    assert lines == [item for _, _, item in everything[-15_000:]]


def test_after_a_cursor_come_the_lines_written_since(logs_dir: Path) -> None:
    fill(logs_dir, "app", 10)
    first = query(logs_dir, "app", tail=3, run="all")
    assert ([x["text"] for x in first.lines], first.more) == (["7", "8", "9"], False)
    assert query(logs_dir, "app", after=first.cursor, run="all").lines == []
    with LogStore(logs_dir) as store:
        store.append_many("app", 99.0, "stdout", 1, ["10", "11", "12"])
    later = query(logs_dir, "app", tail=2, after=first.cursor, run="all")
    assert ([x["text"] for x in later.lines], later.more) == (["10", "11"], True)
    rest = query(logs_dir, "app", after=later.cursor, run="all")
    assert ([x["text"] for x in rest.lines], rest.more) == (["12"], False)


def test_a_cursor_is_text_and_a_bad_one_is_a_usage_error() -> None:
    cursor = {"api": (3, 1024), "recipe.deploy": (1, 0)}
    assert parse_cursor(cursor_text(cursor)) == cursor
    for bad in ("", "api", "api:3", "api:x:1", "api:3:-1", ":1:2"):
        with pytest.raises(UsageError) as caught:
            parse_cursor(bad)
        assert caught.value.suggestion == "pass the `cursor` of an earlier answer as it is"


def test_the_cli_answers_a_huge_tail_within_a_memory_cap(tmp_path: Path) -> None:
    """`procler logs --tail 1000000` on a 500,000-line (69 MB) log built a 638 MB answer;
    capped at 256 MiB of address space it now answers its first page, and its cursor the
    next."""
    write_config(tmp_path, "processes:\n  app: {command: sleep 60}\n")
    logs = tmp_path / ".procler" / "state" / "logs"
    logs.mkdir(parents=True)
    line = "{i:06d} " + "x" * 120
    with LogStore(logs, max_size=1 << 30) as store:  # one segment: nothing rotated away
        for start in range(0, 500_000, 10_000):
            texts = [line.format(i=i) for i in range(start, start + 10_000)]
            store.append_many("app", start / 1000, "stdout", 1, texts)
    code, env = run_procler(tmp_path, "logs", "app", "--tail", "1000000", memory_mib=256)
    assert code == 0, env
    data = env["data"]
    assert (len(data["lines"]), data["truncated"], data["more"]) == (10_000, False, True)
    assert data["lines"][0]["text"] == line.format(i=0)
    code, env = run_procler(
        tmp_path, "logs", "app", "--tail", "1000000", "--after", data["cursor"], memory_mib=256
    )
    assert code == 0 and env["data"]["lines"][0]["text"] == line.format(i=10_000)
