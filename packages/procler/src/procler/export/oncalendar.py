"""A five-field cron line as a systemd OnCalendar= expression (what `.timer` units read)."""

from __future__ import annotations

import re

DAYS = ("Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_PART = re.compile(r"(\*|\d+)(?:-(\d+))?(?:/(\d+))?")
_NICKNAMES = {
    "@hourly": "hourly",
    "@daily": "daily",
    "@midnight": "daily",
    "@weekly": "weekly",
    "@monthly": "monthly",
    "@yearly": "yearly",
    "@annually": "yearly",
}


class CronUnsupported(ValueError):
    """A cron line OnCalendar= cannot say the same way."""


def _field(text: str, lowest: int) -> str:
    """One cron field (lists, ranges, steps) in OnCalendar's spelling (`,`, `..`, `/`)."""
    out = []
    for part in text.split(","):
        match = _PART.fullmatch(part)
        if match is None:
            raise CronUnsupported(f"the cron field {text!r} is not numeric")
        start, end, step = match.groups()
        if start == "*":
            if end is not None:
                raise CronUnsupported(f"the cron field {text!r} is not valid")
            out.append(f"{lowest}/{step}" if step else "*")
        elif end is not None:
            if step:
                raise CronUnsupported(f"a stepped range ({part}) has no OnCalendar spelling")
            out.append(f"{int(start):02d}..{int(end):02d}")
        else:
            out.append(f"{int(start):02d}/{step}" if step else f"{int(start):02d}")
    return ",".join(out)


def _weekdays(text: str) -> str:
    if text == "*":
        return ""
    out = []
    for part in text.split(","):
        bounds = part.split("-")
        if not all(b.isdigit() and int(b) <= 7 for b in bounds) or len(bounds) > 2:
            raise CronUnsupported(f"the day-of-week field {text!r} is not numeric 0-7")
        out.append("..".join(DAYS[int(b)] for b in bounds))
    return ",".join(out) + " "


def on_calendar(cron: str) -> str:
    """'*/5 * * * *' -> '*-*-* *:00/5:00'; CronUnsupported when it cannot be said."""
    line = cron.strip()
    if line in _NICKNAMES:
        return _NICKNAMES[line]
    fields = line.split()
    if len(fields) != 5:
        raise CronUnsupported(f"{cron!r} is not a five-field cron line")
    minute, hour, day, month, weekday = fields
    if day != "*" and weekday != "*":
        raise CronUnsupported(
            "cron runs when the day of month OR the weekday matches; systemd needs both"
        )
    return (
        f"{_weekdays(weekday)}*-{_field(month, 1)}-{_field(day, 1)} "
        f"{_field(hour, 0)}:{_field(minute, 0)}:00"
    )
