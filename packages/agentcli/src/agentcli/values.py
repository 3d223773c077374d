"""Parsers for argument value types shared by every tool (durations, KEY=VALUE pairs)."""

from __future__ import annotations

_UNIT_SECONDS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}


def parse_duration(text: str) -> float:
    """Parse '500ms', '10s', '5m', '1h', '1h30m' (or bare seconds) into seconds."""
    import re  # lazily: `re` is too slow to import on every CLI start

    raw = str(text).strip()
    if re.fullmatch(r"\d+(?:\.\d+)?", raw):
        return float(raw)
    pos = 0
    total = 0.0
    for match in re.finditer(r"(\d+(?:\.\d+)?)(ms|h|m|s)", raw):
        if match.start() != pos:
            break
        total += float(match.group(1)) * _UNIT_SECONDS[match.group(2)]
        pos = match.end()
    if pos != len(raw) or not raw:
        raise ValueError(f"invalid duration {text!r}: use e.g. 500ms, 10s, 5m, 1h, 1h30m")
    return total


parse_duration.__name__ = "duration"  # argparse names the type in its error message


def parse_key_value(text: str) -> tuple[str, str]:
    """Parse 'KEY=VALUE' into a pair; the value may contain '='."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise ValueError(f"expected KEY=VALUE, got {text!r}")
    return key, value


parse_key_value.__name__ = "KEY=VALUE"
