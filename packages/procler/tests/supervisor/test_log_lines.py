"""supervisor.log: INFO lines written soon (by the loop), warnings at once, none lost at close."""

from __future__ import annotations

import asyncio
import io
import logging

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
