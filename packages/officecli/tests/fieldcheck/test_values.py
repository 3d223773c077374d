"""Lenient parsing of business formats, and how values print in reports."""

from __future__ import annotations

from datetime import date

import pytest

from officecli.fieldcheck.values import (
    format_value,
    parse_boolean,
    parse_date,
    parse_integer,
    parse_number,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1000", 1000.0),
        ("-12.5", -12.5),
        ("1,000", 1000.0),
        ("1,234,567.89", 1234567.89),
        ("¥1,000", 1000.0),
        ("￥1,000", 1000.0),
        ("1,000円", 1000.0),
        ("(1,000)", -1000.0),
        ("▲1,000", -1000.0),
        ("△500", -500.0),
        ("-¥1,000", -1000.0),
        ("¥-1,000", -1000.0),
        ("10%", 0.1),
        ("１，０００", 1000.0),
        ("１２３円", 123.0),
        (" 42 ", 42.0),
        ("$3.50", 3.5),
    ],
)
def test_numbers_read_leniently(text: str, expected: float) -> None:
    assert parse_number(text) == pytest.approx(expected)


@pytest.mark.parametrize("text", ["abc", "1,00", "12a", "nan", "inf", "--1", "(▲1)", "1.2.3", "¥"])
def test_not_numbers(text: str) -> None:
    assert parse_number(text) is None


def test_integers() -> None:
    assert (parse_integer("1,000"), parse_integer("1.5"), parse_integer("x")) == (
        1000.0,
        None,
        None,
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-04-01", date(2026, 4, 1)),
        ("2026/4/1", date(2026, 4, 1)),
        ("2026.04.01", date(2026, 4, 1)),
        ("2026年4月1日", date(2026, 4, 1)),
        ("２０２６年４月１日", date(2026, 4, 1)),
        ("R8.4.1", date(2026, 4, 1)),
        ("令和8年4月1日", date(2026, 4, 1)),
        ("令和元年5月1日", date(2019, 5, 1)),
        ("H31.4.30", date(2019, 4, 30)),
        ("S64.1.7", date(1989, 1, 7)),
        ("2026/4/1 10:30", date(2026, 4, 1)),
    ],
)
def test_dates_read_leniently(text: str, expected: date) -> None:
    assert parse_date(text) == expected


@pytest.mark.parametrize("text", ["2026/2/30", "April 1", "2026/13/1", "R8", "X8.4.1"])
def test_not_dates(text: str) -> None:
    assert parse_date(text) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("true", True),
        ("Yes", True),
        ("1", True),
        ("はい", True),
        ("FALSE", False),
        ("n", False),
        ("いいえ", False),
        ("maybe", None),
    ],
)
def test_booleans(text: str, expected: bool | None) -> None:
    assert parse_boolean(text) is expected


def test_format_value() -> None:
    assert [
        format_value(8800.0),
        format_value(0.1 + 0.2),
        format_value(date(2026, 4, 1)),
        format_value(True),
        format_value(None),
        format_value("x"),
    ] == ["8800", "0.3", "2026-04-01", "true", "", "x"]
