"""Questions about stored logs: the last N lines matching filters, and following new ones.

Readers only read files, so the CLI can answer while the supervisor writes. A tail reads
each segment from its end backwards and stops after N+1 matches or at the first record
older than `since` or the asked run (timestamps and runs only grow within a log), so
its cost does not depend on the log's size. An upper bound (`until`, an older run) skips
newer data by bisecting the segment index instead of reading it.

Each answered line is `{"ts": "2024-05-01T12:00:00.123456Z", "stream": "stdout"|"stderr",
"run": 3, "text": "..."}`, plus `"partial": true` on every chunk but the last of a line
longer than 64 KiB (see `procler.logs.capture`), plus `"process"` when a list of
processes was asked.

Runs: `current` is `current_run` (for a process not running, the newest run in its log
when `current_run` is None), `previous` the one before it, an int that run, `all` every
run. While following, `current` also takes in later runs, so a restart stays visible.
`crashed` maps a process to its newest run that ended badly (see states.crashed_run):
`last-failed` is that run, and so is `previous` while the crashed run is the newest.
"""

from __future__ import annotations

import heapq
import os
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, BinaryIO

from procler.logs.follow import Position, SegmentFollower, end_position
from procler.logs.options import (  # re-exported: the CLI parses its options with these
    RunSpec,
    check_stream,
    compile_grep,
    parse_run,
    parse_since,
)
from procler.logs.record import STREAM_CODES, decode_record, to_line
from procler.logs.scan import Cursor, cursor_text, lines_forward
from procler.logs.segment import (
    bounded_end,
    last_newline_end,
    last_record,
    lines_backward_at,
    list_segments,
    read_index,
    segment_path,
)
from procler.logs.store import process_folder
from procler.patterns import Pattern

__all__ = [
    "QueryResult",
    "compile_grep",
    "follow",
    "last_lines",
    "parse_run",
    "parse_since",
    "query",
]

CurrentRun = int | Mapping[str, int] | None
POLL_INTERVAL = 0.05


# One answer holds at most this much: a bigger tail (or what follows a cursor) is paged,
# its cursor saying where to continue. Past this the CLI, and the supervisor answering
# REST and MCP, would hold the whole answer in memory.
MAX_ANSWER_LINES = 10_000
MAX_ANSWER_BYTES = 4 * 1024 * 1024  # of stored records, about the answer's JSON size


@dataclass(frozen=True)
class QueryResult:
    lines: list[dict[str, Any]]
    truncated: bool  # more lines matched than `tail` allowed (older ones, left out)
    more: bool = False  # this answer was cut at a page: lines after `cursor` matched too
    cursor: Cursor = field(default_factory=dict)  # where this answer ends, in each log


# A tail's record read on the way back: (ts, record, position just after it, its size).
_Held = tuple[int, dict[str, Any], Position, int]


@dataclass(frozen=True)
class _TailStart:
    start: Position  # where the newest `limit` matching records begin
    count: int  # how many there are
    more: bool  # older ones matched too
    # those records, newest first, when they fit in one answer's page: the answer is made
    # of them instead of reading (and decoding) them a second time; None past a page
    held: list[_Held] | None


@dataclass(frozen=True)
class _Filter:
    """The filters of one process, with times in microseconds and runs resolved."""

    ts_lo: int | None = None
    ts_hi: int | None = None
    run_lo: int | None = None
    run_hi: int | None = None
    stream: str | None = None  # record code, "o" or "e"
    grep: Pattern | None = None
    empty: bool = False  # a run that cannot exist (no log, or no run before the first)

    def is_older(self, record: dict[str, Any]) -> bool:
        """True when this and every earlier record are before the asked range."""
        return (self.ts_lo is not None and record["ts"] < self.ts_lo) or (
            self.run_lo is not None and record.get("r", 0) < self.run_lo
        )

    def is_newer(self, record: dict[str, Any]) -> bool:
        """True when this and every later record are after the asked range."""
        return (self.ts_hi is not None and record["ts"] > self.ts_hi) or (
            self.run_hi is not None and record.get("r", 0) > self.run_hi
        )

    def matches(self, record: dict[str, Any]) -> bool:
        return not (
            (self.ts_hi is not None and record["ts"] > self.ts_hi)
            or (self.run_hi is not None and record.get("r", 0) > self.run_hi)
            or (self.ts_lo is not None and record["ts"] < self.ts_lo)
            or (self.run_lo is not None and record.get("r", 0) < self.run_lo)
            or (self.stream is not None and record.get("s") != self.stream)
            or (self.grep is not None and self.grep.search(record["t"]) is None)
        )


def query(
    directory: Path,
    process: str | list[str],
    *,
    tail: int | None = 100,
    since: float | None = None,
    until: float | None = None,
    stream: str | None = None,
    grep: Pattern | None = None,
    run: RunSpec = "current",
    current_run: CurrentRun = None,
    crashed: Mapping[str, int] | None = None,
    after: Cursor | None = None,
) -> QueryResult:
    """The last `tail` lines (all when None) matching every filter, oldest first; with
    `after`, the first `tail` lines after that cursor instead. At most a page
    (MAX_ANSWER_LINES, MAX_ANSWER_BYTES): `more` then says lines follow the cursor.

    `since`/`until` are Unix seconds (inclusive). With a list of processes, lines are
    interleaved by time and carry `"process"`; `current_run` may then map names to runs.
    """
    names = [process] if isinstance(process, str) else list(process)
    folders = {name: process_folder(directory, name) for name in names}
    ends = {name: end_position(folder) for name, folder in folders.items()}
    filters = {
        name: _make_filter(folder, since, until, stream, grep, run, current_run, crashed, name, False)
        for name, folder in folders.items()
    }  # fmt: skip
    if after is not None:
        starts = {name: after.get(name, (0, 0)) for name in names}
        skip, truncated, limit = 0, False, tail
    else:
        tails = {
            name: _tail_start(folders[name], filters[name], tail, ends[name]) for name in names
        }
        starts = {name: found.start for name, found in tails.items()}
        held = {name: found.held for name, found in tails.items()}
        counted = sum(found.count for found in tails.values())
        # the newest `tail` of the lines counted in every log: skip the oldest
        skip = max(0, counted - tail) if tail is not None else 0
        truncated = any(found.more for found in tails.values()) or skip > 0
        limit = None
        kept = held[names[0]]
        if len(names) == 1 and kept is not None:  # the whole answer, as read on the way back
            named = None if isinstance(process, str) else names[0]
            answer = [to_line(record, named) for _, record, _, _ in reversed(kept)]
            return QueryResult(answer, truncated, False, ends)
    label = not isinstance(process, str)
    merged = _merged(folders, filters, starts, ends, held if after is None else None)
    cursor = dict(starts)
    lines: list[dict[str, Any]] = []
    size = 0
    for _, order, record, position, length in merged:
        name = names[order]
        if skip:
            skip -= 1
        elif (limit is not None and len(lines) >= limit) or (
            len(lines) >= MAX_ANSWER_LINES or (size + length > MAX_ANSWER_BYTES and lines)
        ):
            return QueryResult(lines, truncated, True, cursor)
        else:
            lines.append(to_line(record, name if label else None))
            size += length
        cursor[name] = position
    return QueryResult(lines, truncated, False, ends)


def _merged(
    folders: Mapping[str, Path],
    filters: Mapping[str, _Filter],
    starts: Mapping[str, Position],
    ends: Mapping[str, Position],
    held: Mapping[str, list[_Held] | None] | None = None,
) -> Iterator[tuple[int, int, dict[str, Any], Position, int]]:
    """(ts, order, record, position after it, its size) of every matching record between
    each log's start and end, interleaved by time (a log's own order kept). A log whose
    tail's records were `held` on the way back answers those, not read again."""
    each: list[Iterator[tuple[int, int, dict[str, Any], Position, int]]] = []
    for order, name in enumerate(folders):
        kept = None if held is None else held[name]
        if kept is None:
            each.append(_matching(folders[name], filters[name], starts[name], ends[name], order))
        else:
            each.append(_replayed(kept, order))
    return heapq.merge(*each, key=lambda item: (item[0], item[1]))


def _replayed(
    held: list[_Held], order: int
) -> Iterator[tuple[int, int, dict[str, Any], Position, int]]:
    for ts, record, after, size in reversed(held):
        yield ts, order, record, after, size


def _matching(
    folder: Path, flt: _Filter, start: Position, end: Position, order: int
) -> Iterator[tuple[int, int, dict[str, Any], Position, int]]:
    if flt.empty:
        return
    for line, position in lines_forward(folder, start, end):
        record = decode_record(line)
        if record is None:
            continue
        if flt.is_newer(record):
            return  # timestamps and runs only grow: nothing later can match
        if flt.matches(record):
            yield record["ts"], order, record, position, len(line) + 1


def follow(
    directory: Path,
    process: str | list[str],
    *,
    tail: int | None = 100,
    since: float | None = None,
    until: float | None = None,
    stream: str | None = None,
    grep: Pattern | None = None,
    run: RunSpec = "current",
    current_run: CurrentRun = None,
    crashed: Mapping[str, int] | None = None,
    after: Cursor | None = None,
    timeout: float | None = None,
    poll_interval: float = POLL_INTERVAL,
) -> Iterator[dict[str, Any]]:
    """The tail lines (or, with `after`, every line after that cursor), then each matching
    line as it is written, until `timeout` seconds; then a last object saying so, with the
    cursor to resume from (`{"end": "timeout", ...}`).

    Lines are streamed as they are read, so a tail of any size holds one line at a time;
    it ends exactly where following starts, so no line is lost or repeated in between.
    """
    deadline = None if timeout is None else time.monotonic() + timeout
    names = [process] if isinstance(process, str) else list(process)
    folders = {name: process_folder(directory, name) for name in names}
    ends = {name: end_position(folder) for name, folder in folders.items()}
    filters = {
        name: _make_filter(folder, since, until, stream, grep, run, current_run, crashed, name, True)
        for name, folder in folders.items()
    }  # fmt: skip
    label = not isinstance(process, str)
    if after is not None:
        starts, skip = {name: after.get(name, (0, 0)) for name in names}, 0
    else:
        tails = {
            name: _tail_start(folders[name], filters[name], tail, ends[name]) for name in names
        }
        starts = {name: found.start for name, found in tails.items()}
        counted = sum(found.count for found in tails.values())
        skip = max(0, counted - tail) if tail is not None else 0
    held = None if after is not None else {name: found.held for name, found in tails.items()}
    sent = 0
    for _, order, record, _, _ in _merged(folders, filters, starts, ends, held):
        if skip:
            skip -= 1
            continue
        sent += 1
        yield to_line(record, names[order] if label else None)
    followers = [(name, SegmentFollower(folders[name], ends[name])) for name in names]
    try:
        while True:
            fresh = [
                [(record["ts"], order, to_line(record, name if label else None)) for record in
                 follower.poll() if filters[name].matches(record) and not filters[name].empty]
                for order, (name, follower) in enumerate(followers)
            ]  # fmt: skip
            for _, _, line in heapq.merge(*fresh, key=lambda item: (item[0], item[1])):
                sent += 1
                yield line
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                yield {
                    "end": "timeout",
                    "timeout_seconds": timeout,
                    "lines": sent,
                    "cursor": cursor_text({n: f.position for n, f in followers}),
                }
                return
            time.sleep(poll_interval if remaining is None else min(poll_interval, remaining))
    finally:
        for _, follower in followers:
            follower.close()


def last_lines(
    directory: Path, process: str, run: int, stream: str = "stderr", n: int = 10
) -> list[str]:
    """The texts of a run's last `n` lines on `stream` (flush the store first)."""
    result = query(directory, process, tail=n, stream=stream, run=run)
    return [line["text"] for line in result.lines]


def _make_filter(
    folder: Path,
    since: float | None,
    until: float | None,
    stream: str | None,
    grep: Pattern | None,
    run: RunSpec,
    current_run: CurrentRun,
    crashed: Mapping[str, int] | None,
    name: str,
    following: bool,
) -> _Filter:
    check_stream(stream)
    base = _Filter(
        ts_lo=None if since is None else int(since * 1_000_000),
        ts_hi=None if until is None else int(until * 1_000_000),
        stream=None if stream is None else STREAM_CODES[stream],
        grep=grep,
    )
    if run == "all":
        return base
    if isinstance(run, int):
        return replace(base, run_lo=run, run_hi=run)
    failed = (crashed or {}).get(name)
    if run == "last-failed":
        return replace(base, run_lo=failed, run_hi=failed, empty=failed is None)
    current = current_run.get(name) if isinstance(current_run, Mapping) else current_run
    if run == "previous" and failed is not None and failed == current:
        return replace(base, run_lo=failed, run_hi=failed)  # no run after the crash yet
    if current is None:
        current = _newest_run(folder)
    if current is None:  # no log at all: nothing to show, but a follow takes any run
        return base if following else replace(base, empty=True)
    if run == "current":
        return replace(base, run_lo=current, run_hi=None if following else current)
    return replace(base, run_lo=current - 1, run_hi=current - 1, empty=current < 2)


def _newest_run(folder: Path) -> int | None:
    for number in reversed(list_segments(folder)):
        try:
            with segment_path(folder, number).open("rb") as file:
                record = last_record(file, last_newline_end(file, os.fstat(file.fileno()).st_size))
            if record is not None:
                return int(record.get("r", 0))
        except FileNotFoundError:
            continue
    return None


def _tail_start(folder: Path, flt: _Filter, limit: int | None, end: Position) -> _TailStart:
    """Counts backwards from `end` to where the newest `limit` matching records begin,
    holding them only while they fit in a page (an unbounded tail holds none)."""
    if flt.empty or limit == 0:
        return _TailStart(end, 0, False, [])
    start, count = end, 0
    held: list[_Held] | None = [] if limit is not None and limit <= MAX_ANSWER_LINES else None
    size = 0
    for number in reversed([n for n in list_segments(folder) if n <= end[0]]):
        try:
            file = segment_path(folder, number).open("rb")
        except FileNotFoundError:  # deleted by rotation while we read newer ones
            continue
        with file:
            segment_end = end[1] if number == end[0] else os.fstat(file.fileno()).st_size
            stop = last_newline_end(file, segment_end)
            if _ends_after_range(file, stop, flt):
                stop = bounded_end(read_index(folder, number, stop), stop, flt.ts_hi, flt.run_hi)
            for offset, line in lines_backward_at(file, stop):
                record = decode_record(line)
                if record is None:
                    continue
                if flt.is_older(record):
                    return _TailStart(start, count, False, held)
                if flt.matches(record):
                    if limit is not None and count >= limit:
                        return _TailStart(start, count, True, held)
                    start, count = (number, offset), count + 1
                    if held is not None:
                        length = len(line) + 1
                        held.append((record["ts"], record, (number, offset + length), length))
                        size += length
                        if size > MAX_ANSWER_BYTES:
                            held = None  # more than a page: read forward, a page at a time
    return _TailStart(start, count, False, held)


def _ends_after_range(file: BinaryIO, end: int, flt: _Filter) -> bool:
    """Whether the segment's last record is newer than `until` or later than the run asked
    (only then is its index worth reading)."""
    if flt.ts_hi is None and flt.run_hi is None:
        return False
    record = last_record(file, end)
    return record is not None and (
        (flt.ts_hi is not None and record["ts"] > flt.ts_hi)
        or (flt.run_hi is not None and record.get("r", 0) > flt.run_hi)
    )
