"""supervisor.log: INFO lines written soon (by the loop), warnings at once, none lost at close."""

from __future__ import annotations

import asyncio
import io
import logging
from pathlib import Path

import pytest

from procler.supervisor import log_lines


def handler_writing_to(out: io.StringIO) -> log_lines.SoonHandler:
    target = logging.StreamHandler(out)
    target.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    return log_lines.SoonHandler(target)


def record(level: int, message: str) -> logging.LogRecord:
    return logging.LogRecord("procler.supervisor", level, __file__, 1, message, None, None)


def test_info_lines_wait_for_the_loop_and_a_warning_writes_them_at_once() -> None:
    out = io.StringIO()
    handler = handler_writing_to(out)

    async def log() -> list[str]:
        seen = []
        handler.handle(record(logging.INFO, "api: stopped -> starting"))
        handler.handle(record(logging.INFO, "api: starting -> running"))
        await asyncio.sleep(0)
        seen.append(out.getvalue())  # a turn later: still waiting
        await asyncio.sleep(2 * log_lines.WRITE_WITHIN)  # written together
        seen.append(out.getvalue())
        handler.handle(record(logging.INFO, "api: running -> stopping"))
        handler.handle(record(logging.WARNING, "api: no exit after 10s"))  # with what waits
        seen.append(out.getvalue())
        handler.handle(record(logging.INFO, "api: stopping -> stopped"))
        handler.close()  # at exit: nothing waiting is lost
        seen.append(out.getvalue())
        return seen

    first = "INFO api: stopped -> starting\nINFO api: starting -> running\n"
    warned = first + "INFO api: running -> stopping\nWARNING api: no exit after 10s\n"
    assert asyncio.run(log()) == ["", first, warned, warned + "INFO api: stopping -> stopped\n"]


def test_with_no_loop_running_a_line_is_written_at_once() -> None:
    out = io.StringIO()
    handler = handler_writing_to(out)
    handler.handle(record(logging.INFO, "another supervisor holds the lock"))
    assert out.getvalue() == "INFO another supervisor holds the lock\n"
    handler.close()


def formatted(message: str, *args: object, exc: bool = False) -> str:
    rec = logging.LogRecord("procler.refused", logging.WARNING, __file__, 1, message, args, None)
    if exc:
        try:
            raise ValueError("bad\n2030-01-01 00:00:00,000 INFO procler: forged")
        except ValueError:
            import sys

            rec.exc_info = sys.exc_info()
    return log_lines.OneLineFormatter("%(levelname)s %(name)s: %(message)s").format(rec)


def test_a_line_cannot_be_forged_by_what_it_quotes() -> None:
    path = "/a\n2030-01-01 00:00:00,000 INFO procler.supervisor: api: running -> stopped\x1b[2J"
    assert formatted("refused %s %s: %s", "GET", path, "FORBIDDEN") == (
        "WARNING procler.refused: refused GET /a\\n2030-01-01 00:00:00,000 INFO "
        "procler.supervisor: api: running -> stopped\\x1b[2J: FORBIDDEN"
    )
    first, *rest = formatted("failed", exc=True).split("\n")
    assert first == "WARNING procler.refused: failed"
    assert rest[0] == "  | Traceback (most recent call last):"
    # the exception's own newline starts a line of the traceback, indented like the others
    assert rest[-2:] == ["  | ValueError: bad", "  | 2030-01-01 00:00:00,000 INFO procler: forged"]
    assert all(line.startswith("  | ") for line in rest)


def test_tickets_and_tokens_are_never_written() -> None:
    line = formatted('%s - "WebSocket %s" [accepted]', "127.0.0.1:5", "/v1/ws?ticket=Ab-9_x&a=1")
    assert line == (
        'WARNING procler.refused: 127.0.0.1:5 - "WebSocket /v1/ws?ticket=[hidden]&a=1" [accepted]'
    )


def test_refusals_are_rate_limited_and_say_how_many_were_left_out() -> None:
    limit = log_lines.RateLimit(burst=3, window=60.0)
    records = [record(logging.WARNING, f"refused {i}") for i in range(10)]
    assert [limit.filter(r) for r in records] == [True] * 3 + [False] * 7
    limit.start -= 60.0  # a window later
    late = record(logging.WARNING, "refused 10")
    assert limit.filter(late) and late.getMessage() == "refused 10 (and 7 like it not logged)"


def test_the_log_rotates_past_its_size_and_keeps_a_bounded_number_of_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(log_lines, "MAX_BYTES", 1000)
    path = tmp_path / "supervisor.log"
    with open(path, "a", encoding="utf-8") as stream:
        handler = log_lines.RotatingStream(stream, str(path))
        for i in range(100):
            handler.handle(record(logging.WARNING, f"line {i:03d} " + "x" * 90))
        stream.flush()
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["supervisor.log", "supervisor.log.1", "supervisor.log.2"]
    assert all(p.stat().st_size <= 1000 + 100 for p in tmp_path.iterdir())
    assert path.read_text().splitlines()[-1] == "line 099 " + "x" * 90  # the stream follows
    assert oct(path.stat().st_mode & 0o777) == "0o600"
