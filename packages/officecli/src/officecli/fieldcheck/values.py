"""Lenient parsing of the ways business sheets write numbers, dates and booleans.

Every parser takes a non-blank cell text and returns the value, or None when the text is
not of that type. Plain numbers and ISO dates take a fast path (`float`,
`date.fromisoformat`) before any normalisation, because most cells are plain.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from datetime import date

Value = float | str | bool | date | None

_NEGATIVE_MARKS = "-▲△−"  # ▲/△ are the Japanese accounting minus; U+2212 is the math minus
_CURRENCY = "¥$€£"
_NUMBER = re.compile(r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+")
_YMD = re.compile(r"(\d{4})\s*[/.\-年]\s*(\d{1,2})\s*[/.\-月]\s*(\d{1,2})\s*日?")
_ERA = re.compile(
    r"(令和|平成|昭和|大正|明治|[RHSTM])\s*(\d{1,2}|元)\s*[./年]\s*(\d{1,2})\s*[./月]\s*(\d{1,2})\s*日?"
)
# First year of each era: year = start + era_year - 1.
_ERA_START = {"R": 2019, "H": 1989, "S": 1926, "T": 1912, "M": 1868}
_ERA_NAMES = {"令和": "R", "平成": "H", "昭和": "S", "大正": "T", "明治": "M"}
_TRUE = frozenset({"true", "yes", "y", "t", "1", "on", "はい", "○", "〇"})
_FALSE = frozenset({"false", "no", "n", "f", "0", "off", "いいえ", "×"})


def parse_number(text: str) -> float | None:
    """`1234`, `1,234.5`, `¥1,000`, `1,000円`, `(1,000)`, `▲1,000`, `10%` (0.1), full-width."""
    try:
        value = float(text)
    except ValueError:
        return _lenient_number(text)
    return value if value - value == 0 else None  # rejects nan and inf


def _lenient_number(text: str) -> float | None:
    s = unicodedata.normalize("NFKC", text).strip()
    negative = False
    if s.startswith("(") and s.endswith(")"):
        negative, s = True, s[1:-1].strip()
    percent = s.endswith("%")
    s = s.rstrip("%円").rstrip()
    # Sign and currency may come in either order: -¥1,000 and ¥-1,000 alike.
    for _ in range(2):
        if s[:1] and s[0] in _NEGATIVE_MARKS:
            if negative:
                return None
            negative, s = True, s[1:].lstrip()
        elif s[:1] and s[0] in _CURRENCY:
            s = s[1:].lstrip()
    if s.startswith("+") and not negative:
        s = s[1:]
    if not _NUMBER.fullmatch(s):
        return None
    value = float(s.replace(",", ""))
    if percent:
        value /= 100
    return -value if negative else value


def parse_integer(text: str) -> float | None:
    """A number without a fractional part (kept as float, like every number here)."""
    value = parse_number(text)
    return value if value is not None and value.is_integer() else None


def parse_date(text: str) -> date | None:
    """`2026-04-01`, `2026/4/1`, `2026.4.1`, `2026年4月1日`, `R8.4.1`, `令和8年4月1日`."""
    try:
        return date.fromisoformat(text)
    except ValueError:
        pass
    s = unicodedata.normalize("NFKC", text).strip()
    match = _YMD.fullmatch(s)
    if match:
        return _make_date(int(match[1]), int(match[2]), int(match[3]))
    match = _ERA.fullmatch(s)
    if match:
        era = _ERA_NAMES.get(match[1], match[1])
        year = 1 if match[2] == "元" else int(match[2])
        return _make_date(_ERA_START[era] + year - 1, int(match[3]), int(match[4]))
    if " " in s or "T" in s:  # a timestamp: keep its date
        head = s.replace("T", " ").split(" ", 1)[0]
        return parse_date(head) if head != s else None
    return None


def _make_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


BOOLEAN_WORDS = {**dict.fromkeys(_TRUE, True), **dict.fromkeys(_FALSE, False)}


def parse_boolean(text: str) -> bool | None:
    """true/false, yes/no, y/n, 1/0, on/off, はい/いいえ, ○/× (case-insensitive)."""
    s = text if text in _TRUE or text in _FALSE else text.strip().lower()
    if s in _TRUE:
        return True
    if s in _FALSE:
        return False
    return None


def parse_auto(text: str) -> float | date | str:
    """For columns without a declared type: a number or a date when it reads as one."""
    number = parse_number(text)
    if number is not None:
        return number
    day = parse_date(text)
    return text.strip() if day is None else day


def parse_string(text: str) -> str:
    return text


Converter = Callable[[str], Value]
CONVERTERS: dict[str, Converter] = {
    "string": parse_string,
    "number": parse_number,
    "integer": parse_integer,
    "date": parse_date,
    "boolean": parse_boolean,
    "auto": parse_auto,
}
TYPE_HINTS = {
    "number": "write a number such as 1234, 1,234.5, ¥1,000, 1,000円, (1,000) or 10%",
    "integer": "write a whole number such as 1234 or 1,234",
    "date": "write a date such as 2026-04-01, 2026/4/1 or 2026年4月1日",
    "boolean": "write true/false, yes/no or 1/0",
}


def is_blank(text: str) -> bool:
    return not text or text.isspace()


def format_value(value: Value) -> str:
    """How a computed value appears in a report: 8800 rather than 8800.0."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e16:
            return str(int(value))
        return repr(round(value, 10))
    if isinstance(value, date):
        return value.isoformat()
    return value
