"""Spreadsheet values as displayed: Excel number-format codes applied to cached values."""

from __future__ import annotations

import datetime as dt

BUILTIN_FORMATS = {
    0: "General", 1: "0", 2: "0.00", 3: "#,##0", 4: "#,##0.00", 9: "0%", 10: "0.00%",
    11: "0.00E+00", 12: "# ?/?", 13: "# ??/??", 14: "yyyy-mm-dd", 15: "d-mmm-yy",
    16: "d-mmm", 17: "mmm-yy", 18: "h:mm AM/PM", 19: "h:mm:ss AM/PM", 20: "h:mm",
    21: "h:mm:ss", 22: "yyyy-mm-dd h:mm", 37: "#,##0 ;(#,##0)", 38: "#,##0 ;[Red](#,##0)",
    39: "#,##0.00;(#,##0.00)", 40: "#,##0.00;[Red](#,##0.00)", 45: "mm:ss", 46: "[h]:mm:ss",
    47: "mmss.0", 48: "##0.0E+0", 49: "@",
}  # fmt: skip
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def general(value: float) -> str:
    """Excel's General format: integers without '.0', others to 15 significant digits."""
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


def _date(value: float, code: str, date1904: bool) -> str:
    base = dt.datetime(1904, 1, 1) if date1904 else dt.datetime(1899, 12, 30)
    try:
        moment = base + dt.timedelta(days=value)
    except OverflowError:
        return general(value)
    moment = (moment + dt.timedelta(microseconds=500_000)).replace(microsecond=0)
    body, _, _ = _strip_literals(code.split(";")[0])
    low = body.lower()
    has_time = any(c in low for c in "hs")
    has_date = any(c in low for c in "yd") or ("m" in low and not has_time)
    parts = []
    if has_date:
        if "mmm" in low:
            parts.append(f"{moment.day}-{MONTHS[moment.month - 1]}-{moment.year}")
        else:
            parts.append(moment.strftime("%Y-%m-%d"))
    if has_time:
        parts.append(moment.strftime("%H:%M:%S" if "s" in low else "%H:%M"))
    return " ".join(parts) or moment.isoformat(sep=" ")


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
    text = f"{abs(value):,.{decimals}f}" if grouping else f"{abs(value):.{decimals}f}"
    return text + ("%" if percent else "")


def format_value(value: float, code: str, date1904: bool = False) -> str:
    """Display text of a number under an Excel format code."""
    if not code or code == "General" or code == "@":
        return general(value)
    sections = code.split(";")
    if is_date_format(code):
        return _date(value, code, date1904)
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
