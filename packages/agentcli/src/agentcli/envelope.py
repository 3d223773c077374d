"""The JSON envelope operational commands answer, and the only writer to stdout."""

from __future__ import annotations

import sys
from _json import encode_basestring  # the C escaper; `json` itself drags in `re`

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SCHEMA_VERSION = "1.0"

ENVELOPE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["schema_version", "success"],
    "additionalProperties": False,
    "properties": {
        "schema_version": {"const": SCHEMA_VERSION},
        "success": {"type": "boolean"},
        "data": {},
        "error": {"type": "string"},
        "error_code": {"type": "string", "pattern": "^[A-Z][A-Z0-9_]*$"},
        "suggestion": {"type": "string"},
    },
}


def build(
    success: bool,
    data: Any = None,
    error: str | None = None,
    error_code: str | None = None,
    suggestion: str | None = None,
) -> dict[str, Any]:
    """Return an envelope in canonical key order; absent values are left out, never null."""
    env: dict[str, Any] = {"schema_version": SCHEMA_VERSION, "success": success}
    for key, value in (
        ("data", data),
        ("error", error),
        ("error_code", error_code),
        ("suggestion", suggestion),
    ):
        if value is not None and value != "":
            env[key] = value
    return env


def _encode(obj: Any, out: list[str]) -> None:
    if isinstance(obj, str):
        out.append(encode_basestring(obj))
    elif obj is None:
        out.append("null")
    elif obj is True:
        out.append("true")
    elif obj is False:
        out.append("false")
    elif isinstance(obj, int):
        out.append(int.__repr__(obj))
    elif isinstance(obj, float):
        if obj != obj or obj in (float("inf"), float("-inf")):
            raise ValueError(f"JSON has no {obj!r}")
        out.append(float.__repr__(obj))
    elif isinstance(obj, dict):
        out.append("{")
        for i, (key, value) in enumerate(obj.items()):
            if i:
                out.append(",")
            out.append(encode_basestring(key if isinstance(key, str) else str(key)))
            out.append(":")
            _encode(value, out)
        out.append("}")
    elif isinstance(obj, list | tuple):
        out.append("[")
        for i, value in enumerate(obj):
            if i:
                out.append(",")
            _encode(value, out)
        out.append("]")
    else:
        raise TypeError(f"{type(obj).__name__} is not JSON serialisable")


def dumps(obj: Any, *, pretty: bool = False) -> str:
    """Serialise deterministically: UTF-8 text, no NaN, insertion key order.

    The compact form equals json.dumps(obj, ensure_ascii=False, separators=(",", ":")).
    """
    if pretty:
        import json

        return json.dumps(obj, ensure_ascii=False, indent=2, allow_nan=False)
    out: list[str] = []
    _encode(obj, out)
    return "".join(out)


def write_stdout(text: str) -> None:
    """Write one document or line to stdout and flush; the only stdout writer."""
    data = text.encode("utf-8", "surrogateescape")
    if not data.endswith(b"\n"):
        data += b"\n"
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def emit(env: dict[str, Any]) -> None:
    """Print one envelope; indented for a person at a terminal, one line otherwise."""
    write_stdout(dumps(env, pretty=sys.stdout.isatty()))
