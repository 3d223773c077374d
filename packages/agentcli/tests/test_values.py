from __future__ import annotations

import pytest

from agentcli.values import parse_count, parse_duration, parse_key_value


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


def test_a_duration_longer_than_a_year_is_refused_not_an_overflow() -> None:
    assert parse_duration("8784h") == 366 * 86400.0
    with pytest.raises(ValueError) as caught:
        parse_duration("9" * 400)
    assert str(caught.value) == "duration 99999999999999999999... is longer than a year (366 days)"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("-5", "must be 0 or more"),
        ("abc", "expected a whole number such as 100"),
        ("1.5", "expected a whole number such as 100"),
        ("٣", "expected a whole number such as 100"),
        ("1000000001", "1000000001 is more than 1000000000"),
        ("9" * 5000, "99999999999999999999... is more than 1000000000"),
    ],
)
def test_counts_are_whole_numbers_from_zero_to_a_bound(text: str, message: str) -> None:
    assert parse_count("0") == 0
    assert parse_count("1000000000") == 1_000_000_000
    with pytest.raises(ValueError) as caught:
        parse_count(text)
    assert str(caught.value) == message
