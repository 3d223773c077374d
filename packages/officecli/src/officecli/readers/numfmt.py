"""Spreadsheet values as displayed: Excel number-format codes applied to cached values."""

from __future__ import annotations

import datetime as dt
import math
import re
from decimal import ROUND_HALF_UP, Decimal

BUILTIN_FORMATS = {
    0: "General", 1: "0", 2: "0.00", 3: "#,##0", 4: "#,##0.00", 9: "0%", 10: "0.00%",
    11: "0.00E+00", 12: "# ?/?", 13: "# ??/??", 14: "yyyy-mm-dd", 15: "d-mmm-yy",
    16: "d-mmm", 17: "mmm-yy", 18: "h:mm AM/PM", 19: "h:mm:ss AM/PM", 20: "h:mm",
    21: "h:mm:ss", 22: "yyyy-mm-dd h:mm", 37: "#,##0 ;(#,##0)", 38: "#,##0 ;[Red](#,##0)",
    39: "#,##0.00;(#,##0.00)", 40: "#,##0.00;[Red](#,##0.00)", 45: "mm:ss", 46: "[h]:mm:ss",
    47: "mmss.0", 48: "##0.0E+0", 49: "@",
}  # fmt: skip


def general(value: float) -> str:
    """Excel's General format: integers without '.0', others to 15 significant digits."""
    if not math.isfinite(value):
        return str(value)  # not something Excel writes, but a file may hold it
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    text = f"{value:.15g}"
    return text


def _strip_literals(code: str) -> tuple[str, str, str]:
    """(code without quoted text or [..] blocks, prefix literal, suffix literal)."""
    out: list[str] = []
    literal = ""
    prefix = ""
    i = 0
    while i < len(code):
        ch = code[i]
        if ch == '"':
            end = code.find('"', i + 1)
            end = len(code) if end < 0 else end
            literal += code[i + 1 : end]
            i = end + 1
            continue
        if ch == "[":
            end = code.find("]", i)
            block = code[i + 1 : end if end > 0 else len(code)]
            if block.startswith("$"):
                literal += block[1:].split("-")[0]
            i = (end if end > 0 else len(code)) + 1
            continue
        if ch == "\\" and i + 1 < len(code):
            literal += code[i + 1]
            i += 2
            continue
        if ch in "_*":
            i += 2  # padding directives
            continue
        if ch in "$€£¥-+()/: " and not out:
            prefix += ch
        elif ch in "$€£¥" and out:
            literal += ch
        else:
            if literal and not out:
                prefix += literal
                literal = ""
            out.append(ch)
        i += 1
    return "".join(out), prefix, literal


def is_date_format(code: str) -> bool:
    body, _, _ = _strip_literals(code.split(";")[0])
    return any(ch in body.lower() for ch in "ymdhs") and "0" not in body.replace("0E", "")


DATE_TOKEN = re.compile(
    r'"[^"]*"|\\.|\[[^\]]*\]|[_*].|yyyy|yy|e+|g+|m{1,5}|d{1,4}|a{3,4}|h{1,2}|s{1,2}'
    r"|AM/PM|A/P|\.0+|.",
    re.I,
)
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August",
               "September", "October", "November", "December"]  # fmt: skip
JA_WEEKDAYS = "月火水木金土日"
ERAS = [  # (first day, name): Japanese eras for the g/e codes of [$-411] formats
    (dt.datetime(2019, 5, 1), "令和"), (dt.datetime(1989, 1, 8), "平成"),
    (dt.datetime(1926, 12, 25), "昭和"), (dt.datetime(1912, 7, 30), "大正"),
]  # fmt: skip
ELAPSED = re.compile(r"^\[(h+|m+|s+)\]$", re.I)
PLAIN_DATE = re.compile(r"^[ymd/\-. ]+$", re.I)


def _moment(value: float, date1904: bool) -> dt.datetime | None:
    base = dt.datetime(1904, 1, 1) if date1904 else dt.datetime(1899, 12, 30)
    try:
        moment = base + dt.timedelta(days=value)
    except OverflowError:
        return None
    return (moment + dt.timedelta(microseconds=500_000)).replace(microsecond=0)


def _token_text(token: str, moment: dt.datetime, minutes: bool, twelve: bool) -> str:
    """One date/time token of a format code as displayed."""
    low = token.lower()
    if low[0] == "m":
        if minutes and len(low) <= 2:
            return f"{moment.minute:0{len(low)}d}"
        name = MONTH_NAMES[moment.month - 1]
        return {1: str(moment.month), 2: f"{moment.month:02d}", 3: name[:3], 5: name[0]}.get(
            len(low), name
        )
    if low[0] == "y":
        return f"{moment.year % 100:02d}" if low == "yy" else str(moment.year)
    if low[0] in "ge":
        start, name = next(((d, n) for d, n in ERAS if moment >= d), (dt.datetime(1, 1, 1), ""))
        if low[0] == "e":
            return str(moment.year - start.year + 1) if name else str(moment.year)
        return name[: len(low)] if len(low) < 3 else name
    if low[0] == "d":
        weekday = WEEKDAYS[moment.weekday()]
        return {1: str(moment.day), 2: f"{moment.day:02d}", 3: weekday[:3]}.get(len(low), weekday)
    if low[0] == "a" and len(low) >= 3 and low != "am/pm":
        return JA_WEEKDAYS[moment.weekday()] + ("曜日" if len(low) == 4 else "")
    if low[0] == "h":
        hour = (moment.hour % 12 or 12) if twelve else moment.hour
        return f"{hour:0{len(low)}d}"
    if low[0] == "s":
        return f"{moment.second:0{len(low)}d}"
    if low in ("am/pm", "a/p"):
        text = "AM" if moment.hour < 12 else "PM"
        return text if low == "am/pm" else text[0]
    return ""


def _date_tokens(code: str) -> list[str]:
    return DATE_TOKEN.findall(code.split(";")[0])


def _date(value: float, code: str, date1904: bool, iso: bool) -> str:
    """A date as its format shows it (`m/d` -> 6/3); ISO when the format is a plain full
    date (year, month and day with separators only) or when asked for."""
    moment = _moment(value, date1904)
    if moment is None:
        return general(value)
    tokens = _date_tokens(code)
    fields = [t.lower() for t in tokens if t[0].lower() in "ymdhs"]
    has_time = any(t[0] in "hs" for t in fields)
    plain = (
        PLAIN_DATE.match("".join(tokens)) is not None
        and {"y", "m", "d"} <= {t[0] for t in fields}
        and all(len(t) <= 2 or t[0] == "y" for t in fields)  # no month or weekday names
    )
    if iso or plain:
        text = moment.strftime("%Y-%m-%d")
        return f"{text} {moment.strftime('%H:%M:%S')}" if has_time and iso else text
    twelve = any(t.lower() in ("am/pm", "a/p") for t in tokens)
    out: list[str] = []
    for i, token in enumerate(tokens):
        low = token.lower()
        if token.startswith('"'):
            out.append(token[1:-1])
        elif token.startswith("\\"):
            out.append(token[1:])
        elif ELAPSED.match(token):
            unit = {"h": 24, "m": 1440, "s": 86400}[low[1]]
            out.append(str(int(value * unit)))
        elif token.startswith("[") or token[0] in "_*":
            continue  # colours, locales, padding
        elif low[0] in "ymdeghsa" and (low[0] != "a" or len(low) >= 3 or low in ("am/pm", "a/p")):
            units = [t.lower().strip("[]") for t in tokens]
            before = [t for t in units[:i] if t and t[0] in "hms"]
            after = [t for t in units[i + 1 :] if t and t[0] in "hms"]
            minutes = low[0] == "m" and (
                (bool(before) and before[-1][0] == "h") or (bool(after) and after[0][0] == "s")
            )
            out.append(_token_text(token, moment, minutes, twelve))
        elif token.startswith("."):
            continue  # fractions of a second
        else:
            out.append(token)
    return "".join(out).strip()


def _number(value: float, body: str) -> str:
    percent = "%" in body
    if percent:
        value *= 100
    if "E+" in body.upper():
        decimals = len(body.split(".")[1].upper().split("E")[0]) if "." in body else 0
        return f"{value:.{decimals}E}"
    core = body.replace("%", "")
    decimals = sum(1 for ch in core.split(".")[1] if ch in "0#?") if "." in core else 0
    grouping = "," in core.split(".")[0]
    # Excel rounds halves away from zero (38000.5 under #,##0 shows 38,001)
    shown = Decimal(repr(abs(value))).quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_UP)
    text = f"{shown:,.{decimals}f}" if grouping else f"{shown:.{decimals}f}"
    return text + ("%" if percent else "")


def format_value(value: float, code: str, date1904: bool = False, iso_dates: bool = False) -> str:
    """Display text of a number under an Excel format code (dates as ISO with `iso_dates`)."""
    if not code or code == "General" or code == "@" or not math.isfinite(value):
        return general(value)
    sections = code.split(";")
    if is_date_format(code):
        return _date(value, code, date1904, iso_dates)
    section = sections[0]
    negative_section = len(sections) > 1 and value < 0
    if negative_section:
        section = sections[1]
    elif len(sections) > 2 and value == 0:
        section = sections[2]
    body, prefix, suffix = _strip_literals(section)
    if not any(ch in body for ch in "0#?"):
        return (prefix + suffix).strip() or general(value)
    text = _number(value, body)
    sign = "-" if value < 0 and not negative_section else ""
    return f"{sign}{prefix}{text}{suffix}".strip()
