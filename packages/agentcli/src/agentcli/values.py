"""Parsers for argument value types shared by every tool (durations, counts, KEY=VALUE pairs).

Each refuses values no caller could use (a 400-digit duration, a count past any buffer),
so a huge value is bad input with a message, not an OverflowError deep in a wait.
"""

from __future__ import annotations

_UNIT_SECONDS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}
MAX_DURATION = 366 * 86400.0  # a year: every timer and wait below accepts it
MAX_COUNT = 1_000_000_000


def parse_duration(text: str) -> float:
    """Parse '500ms', '10s', '5m', '1h', '1h30m' (or bare seconds) into seconds."""
    import re  # lazily: `re` is too slow to import on every CLI start

    raw = str(text).strip()
    if re.fullmatch(r"\d+(?:\.\d+)?", raw):
        total = float(raw)
    else:
        pos = 0
        total = 0.0
        for match in re.finditer(r"(\d+(?:\.\d+)?)(ms|h|m|s)", raw):
            if match.start() != pos:
                break
            total += float(match.group(1)) * _UNIT_SECONDS[match.group(2)]
            pos = match.end()
        if pos != len(raw) or not raw:
            raise ValueError(f"invalid duration {text!r}: use e.g. 500ms, 10s, 5m, 1h, 1h30m")
    if total > MAX_DURATION:
        raise ValueError(f"duration {_clip(raw)} is longer than a year (366 days)")
    return total


parse_duration.__name__ = "duration"  # argparse names the type in its error message


def parse_count(text: str) -> int:
    """A whole number from 0 to MAX_COUNT ('100'); no sign, no fraction."""
    raw = str(text).strip()
    if raw.startswith("-") and raw[1:].isdigit():
        raise ValueError("must be 0 or more")
    if not (raw.isascii() and raw.isdigit()):
        raise ValueError("expected a whole number such as 100")
    if len(raw) > len(str(MAX_COUNT)) or int(raw) > MAX_COUNT:
        raise ValueError(f"{_clip(raw)} is more than {MAX_COUNT}")
    return int(raw)


def _clip(text: str) -> str:
    """A value for a message: long ones are cut (the user knows what they typed)."""
    return text if len(text) <= 24 else text[:20] + "..."


def parse_key_value(text: str) -> tuple[str, str]:
    """Parse 'KEY=VALUE' into a pair; the value may contain '='."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise ValueError(f"expected KEY=VALUE, got {text!r}")
    return key, value


parse_key_value.__name__ = "KEY=VALUE"
