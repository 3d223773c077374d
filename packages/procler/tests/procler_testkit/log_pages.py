"""Every stored line of a log, read page by page as an agent would (each answer holds at
most a page: procler.logs.query.MAX_ANSWER_LINES)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from procler.logs.query import query


def all_lines(directory: Path, process: str | list[str], **filters: Any) -> list[dict[str, Any]]:
    """The lines matching `filters`, from the oldest, following each answer's cursor."""
    result = query(directory, process, tail=None, **filters)
    lines = list(result.lines)
    while result.more:
        result = query(directory, process, tail=None, after=result.cursor, **filters)
        lines += result.lines
    return lines
