"""Parsing the `procler logs` options whose errors must read well: times, regexes, runs."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal, cast

from agentcli.errors import UsageError
from agentcli.values import parse_duration
from procler.patterns import SYNTAX_HINT, Pattern, PatternError, compile_pattern

RunSpec = Literal["current", "previous", "last-failed", "all"] | int
STREAMS = ("stdout", "stderr")


def parse_since(text: str, now: float) -> float:
    """Unix seconds for `5m`, `1h30m` (that long before `now`) or an ISO-8601 time.

    An ISO time without a zone is taken as UTC, like every time Procler prints.
    """
    try:
        return now - parse_duration(text)
    except ValueError:
        pass
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(
            f"invalid time {text!r}: expected a duration or an ISO-8601 timestamp",
            suggestion="use e.g. 5m, 1h30m or 2024-05-01T12:00:00Z",
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def compile_grep(text: str) -> Pattern:
    """The --grep regex (linear time), or a UsageError carrying the compiler's message."""
    try:
        return compile_pattern(text)
    except PatternError as error:
        raise UsageError(
            f"invalid --grep regex {text!r}: {error}",
            suggestion=f"fix the regular expression ({SYNTAX_HINT}); escape literal characters",
        ) from None


def parse_run(text: str) -> RunSpec:
    """`current`, `previous`, `last-failed`, `all` or a run number (1 or more)."""
    value = text.strip()
    if value in ("current", "previous", "last-failed", "all"):
        return cast(RunSpec, value)
    if value.isdigit() and int(value) >= 1:
        return int(value)
    raise UsageError(
        f"invalid --run {text!r}",
        suggestion="use current, previous, last-failed, all or a run number like 3",
    )


def check_stream(stream: str | None) -> None:
    if stream is not None and stream not in STREAMS:
        raise UsageError(f"invalid --stream {stream!r}", suggestion="use stdout or stderr")
