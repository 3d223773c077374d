"""The JSON envelope operational commands answer, the only writer to stdout, and the exit."""

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NoReturn

SCHEMA_VERSION = "1.0"

ENVELOPE_SCHEMA: "dict[str, Any]" = {
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
    success: "bool",
    data: "Any" = None,
    error: "str | None" = None,
    error_code: "str | None" = None,
    suggestion: "str | None" = None,
) -> "dict[str, Any]":
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


_ENCODER: "Any" = None


def _not_serialisable(obj: "Any") -> "Any":
    raise TypeError(f"{type(obj).__name__} is not JSON serialisable")


def _compact_encoder() -> "Any":
    """The C encoder behind json.dumps, built from `_json` directly.

    `import json` pulls in `re` and friends (several ms at start-up); the C module alone
    is one shared-library load, and its encoder is ~6x faster than a Python one.
    """
    global _ENCODER
    if _ENCODER is None:
        from _json import encode_basestring, make_encoder

        _ENCODER = make_encoder(
            None, _not_serialisable, encode_basestring, None, ":", ",", False, False, False
        )
    return _ENCODER


def dumps(obj: "Any", *, pretty: "bool" = False) -> "str":
    """Serialise deterministically: UTF-8 text, no NaN, insertion key order.

    The compact form equals json.dumps(obj, ensure_ascii=False, separators=(",", ":"),
    allow_nan=False).
    """
    if pretty:
        import json

        return json.dumps(obj, ensure_ascii=False, indent=2, allow_nan=False)
    return "".join(_compact_encoder()(obj, 0))


def write_stdout(text: "str") -> "None":
    """Write one document or line to stdout and flush; the only stdout writer.

    Text from argv or file names may hold lone surrogates (bytes that were not UTF-8):
    they go out as `\\udcXX` escapes, so stdout stays valid UTF-8 (and valid JSON).
    """
    data = text.encode("utf-8", "backslashreplace")
    if not data.endswith(b"\n"):
        data += b"\n"
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


_ON_STDERR = False  # stdout carries a document: envelopes go to stderr, one line each


def divert_to_stderr(on: "bool" = True) -> "None":
    """From now on envelopes (errors included) go to stderr as one JSON line: stdout
    carries the command's document. `run` turns it off for each new command."""
    global _ON_STDERR
    _ON_STDERR = on


def write_stderr_line(text: "str") -> "None":
    """One JSON document as a single line on stderr (escaped as stdout is)."""
    sys.stderr.flush()
    sys.stderr.buffer.write(text.encode("utf-8", "backslashreplace") + b"\n")
    sys.stderr.buffer.flush()


def emit_text(text: "str") -> "None":
    """Print an envelope someone else serialised compactly; indented at a terminal."""
    if _ON_STDERR:
        write_stderr_line(text)
        return
    if sys.stdout.isatty():
        import json

        text = dumps(json.loads(text), pretty=True)
    write_stdout(text)


def emit(env: "dict[str, Any]") -> "None":
    """Print one envelope; indented for a person at a terminal, one line otherwise."""
    if _ON_STDERR:
        write_stderr_line(dumps(env))
        return
    write_stdout(dumps(env, pretty=sys.stdout.isatty()))


def leave(code: "int") -> "NoReturn":
    """End the process once a command has finished: exit handlers run and the standard
    streams are flushed, but the interpreter's teardown (freeing every module and object,
    ~2 ms here, more than a status round trip) is skipped. Files are closed by their
    `with` blocks and pools by theirs, so teardown has nothing left to do.
    """
    import atexit

    atexit._run_exitfuncs()  # logging.shutdown and any other registered clean-up
    for stream in (sys.stdout, sys.stderr):
        try:  # noqa: SIM105 - contextlib would be one more import at every exit
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)
