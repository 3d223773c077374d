"""JSON arrays of objects (read whole: the standard library cannot stream them) and JSON
Lines (streamed in two passes: the columns, then the rows)."""

from __future__ import annotations

import json
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

from agentcli.files import read_regular
from officecli.readers.tabular.table import (
    Opened,
    RecordIterator,
    TableReadError,
    cell_text,
    in_chunks,
    nothing,
    open_text,
)

MAX_JSON_BYTES = 512 << 20  # a JSON array is read whole (the standard library cannot stream it)


def _json_object(path: Path, where: str, item: Any) -> dict[str, Any]:
    if not isinstance(item, dict):
        raise TableReadError(
            f"{path.name}: {where} is not an object", suggestion="use one JSON object per row"
        )
    return item


def _columns_of(objects: Iterator[dict[str, Any]]) -> list[str]:
    seen: dict[str, None] = {}
    for obj in objects:
        seen.update(dict.fromkeys(obj))
    return list(seen)


def _loads(path: Path, text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise TableReadError(f"{path.name}: {where}not valid JSON: {exc}") from None
    except RecursionError:
        raise TableReadError(f"{path.name}: {where}JSON nested too deeply") from None


def json_rows(path: Path) -> Opened:
    try:
        text = read_regular(path, MAX_JSON_BYTES, path.name).decode("utf-8-sig")
    except UnicodeDecodeError as exc:  # the bytes themselves are never quoted
        raise TableReadError(f"{path.name}: not UTF-8 text (at byte {exc.start})") from None
    data = _loads(path, text, "")
    if isinstance(data, dict) and len(data) == 1 and isinstance(next(iter(data.values())), list):
        data = next(iter(data.values()))  # {"rows": [...]} as well as [...]
    if not isinstance(data, list):
        raise TableReadError(f"{path.name}: expected an array of objects")
    objects = [_json_object(path, f"element {i + 1}", item) for i, item in enumerate(data)]
    columns = _columns_of(iter(objects))

    def rows() -> RecordIterator:
        for number, obj in enumerate(objects, start=1):
            yield number, [cell_text(obj.get(c)) for c in columns]

    return columns, in_chunks(rows()), nothing


def _jsonl_objects(
    path: Path, blanks: list[int] | None = None
) -> Iterator[tuple[int, dict[str, Any]]]:
    number = 0
    with open_text(path, "utf-8-sig") as fh:
        try:
            for number, line in enumerate(fh, start=1):
                if line.strip():
                    item = _loads(path, line, f"line {number}: ")
                    yield number, _json_object(path, f"line {number}", item)
                elif blanks is not None:
                    blanks.append(number)
        except UnicodeDecodeError:  # the bytes themselves are never quoted
            raise TableReadError(f"{path.name}: not UTF-8 text after line {number}") from None


def jsonl_rows(path: Path, blanks: list[int]) -> Opened:
    # A first pass collects the columns so that the rows can stream in the second.
    columns = _columns_of(obj for _, obj in _jsonl_objects(path))

    def rows() -> Generator[tuple[int, list[str]], None, None]:
        for number, obj in _jsonl_objects(path, blanks):
            yield number, [cell_text(obj.get(c)) for c in columns]

    rows_iter = rows()
    return columns, in_chunks(rows_iter), rows_iter.close
