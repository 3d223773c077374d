from __future__ import annotations

import pytest

from agentcli.values import parse_duration, parse_key_value


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("500ms", 0.5),
        ("10s", 10.0),
        ("5m", 300.0),
        ("1h", 3600.0),
        ("1h30m", 5400.0),
        ("2.5", 2.5),
        ("1m30s500ms", 90.5),
    ],
)
def test_durations(text: str, seconds: float) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "10x", "s", "1h 30m", "-5s", "10s5"])
def test_bad_durations(text: str) -> None:
    with pytest.raises(ValueError, match="invalid duration"):
        parse_duration(text)


def test_key_value() -> None:
    assert parse_key_value("A=b=c") == ("A", "b=c")
    with pytest.raises(ValueError, match="expected KEY=VALUE"):
        parse_key_value("novalue")
