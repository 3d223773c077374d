"""The on-disk line record: one compact JSON object per line, UTF-8.

    {"ts":1714564800123456,"s":"o","r":3,"t":"server listening on :8000"}
    {"ts":1714564800123789,"s":"e","r":3,"p":1,"t":"<first 64 KiB of a longer line>"}

- `ts`: integer microseconds since the Unix epoch (UTC); integers keep microsecond
  precision exactly, where floats would not. Non-decreasing within a process's log.
- `s`: stream, "o" (stdout) or "e" (stderr).
- `r`: run number (which start of the process produced the line).
- `p`: present (always 1) on every chunk of a line longer than 64 KiB except its last.
- `t`: the text, without its newline; JSON escaping keeps every record on one line.

Why JSON: `json.encoder.encode_basestring` (C) escapes a whole batch of lines in one
`str.join`, and every reader (`jq`, `grep`) understands the files without Procler.
"""

from __future__ import annotations

import functools
import json
import time
from json.encoder import encode_basestring  # type: ignore[attr-defined]
from typing import Any, Literal

Stream = Literal["stdout", "stderr"]
STREAM_CODES: dict[str, str] = {"stdout": "o", "stderr": "e"}
STREAM_NAMES: dict[str, Stream] = {"o": "stdout", "e": "stderr"}


def encode_records(
    ts_us: int, stream: str, run: int, texts: list[str], partial: bool = False
) -> bytes:
    """Encode lines sharing a timestamp, stream and run as records (one C-level join)."""
    marker = '"p":1,' if partial else ""
    prefix = f'{{"ts":{ts_us},"s":"{STREAM_CODES[stream]}","r":{run},{marker}"t":'
    body = prefix + ("}\n" + prefix).join(map(encode_basestring, texts)) + "}\n"
    # "replace" only matters for lone surrogates, which no decoded pipe data contains.
    return body.encode("utf-8", "replace")


# The C scanner itself: json.loads adds encoding detection and wrappers costing 3x more.
_scan_json = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


def decode_record(line: bytes) -> dict[str, Any] | None:
    """The record's JSON object, or None for a damaged line (e.g. torn by a crash)."""
    text = line.decode("utf-8", "replace")
    try:
        value, end = _scan_json(text, 0)
    except (StopIteration, ValueError):
        return None
    if end != len(text) or not isinstance(value, dict) or "ts" not in value or "t" not in value:
        return None
    return value


@functools.lru_cache(maxsize=4096)
def _second_text(seconds: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds))


def format_ts(ts_us: int) -> str:
    """ISO-8601 UTC with microseconds and a Z: 2024-05-01T12:00:00.123456Z."""
    seconds, micros = divmod(ts_us, 1_000_000)
    return f"{_second_text(seconds)}.{micros:06d}Z"


def to_line(record: dict[str, Any], process: str | None = None) -> dict[str, Any]:
    """The answer's line object: {ts, stream, run, text} (+ partial, + process)."""
    line: dict[str, Any] = {
        "ts": format_ts(record["ts"]),
        "stream": STREAM_NAMES.get(record.get("s", "o"), "stdout"),
        "run": record.get("r", 0),
        "text": record["t"],
    }
    if record.get("p"):
        line["partial"] = True
    if process is not None:
        line["process"] = process
    return line
