"""Schedule times: a cron line or an interval checked, and the slot after a given time.

Cron lines are evaluated by cronsim in the schedule's IANA time zone (zoneinfo), so a
slot is always computed from the schedule itself, never from when the last run ended,
and daylight-saving changes behave as Debian's cron does (a 02:30 job on a night that
skips 02:00-03:00 runs at 03:00; on the night 01:00-02:00 happens twice, a job with a
fixed hour runs once). cronsim is imported only when a schedule is read.
"""

from __future__ import annotations

import math
import os
from datetime import datetime, tzinfo
from functools import lru_cache
from typing import TYPE_CHECKING

from agentcli.values import parse_duration
from procler.config.specs import Invalid

if TYPE_CHECKING:
    from procler.config.model import Schedule

NICKNAMES = {
    "@hourly": "0 * * * *",
    "@daily": "0 0 * * *",
    "@midnight": "0 0 * * *",
    "@weekly": "0 0 * * 0",
    "@monthly": "0 0 1 * *",
    "@yearly": "0 0 1 1 *",
    "@annually": "0 0 1 1 *",
}
EVERY = "@every"
MIN_INTERVAL = 1.0  # seconds: a shorter interval would keep the supervisor busy firing
CRON_HINT = (
    "write five fields (minute hour day-of-month month day-of-week, e.g. '*/15 9-17 * * 1-5'), "
    "a nickname (@hourly, @daily, @weekly, @monthly, @yearly) or @every DURATION"
)


def interval(seconds: float, text: str) -> float:
    """An interval, refused below MIN_INTERVAL."""
    if seconds < MIN_INTERVAL:
        raise Invalid(
            f"interval {text!r} is shorter than {MIN_INTERVAL:g}s",
            f"use at least {MIN_INTERVAL:g}s",
        )
    return seconds


def read_cron(text: str) -> tuple[str | None, float | None]:
    """(cron line, None) or (None, interval seconds) for a schedule text; Invalid (the
    config check's error) when it cannot be read."""
    line = " ".join(text.split())
    if line.startswith(EVERY):
        rest = line[len(EVERY) :].strip()
        try:
            seconds = parse_duration(rest)
        except ValueError as exc:
            raise Invalid(f"{text!r}: {exc}", "write e.g. @every 10m or @every 1h30m") from None
        return None, interval(seconds, rest)
    if line.startswith("@"):
        if line not in NICKNAMES:
            raise Invalid(f"unknown cron nickname {line!r}", CRON_HINT)
        return NICKNAMES[line], None
    from cronsim import CronSim, CronSimError

    if len(line.split(" ")) != 5:
        raise Invalid(f"cron line {text!r} does not have five fields", CRON_HINT)
    try:
        CronSim(line, datetime(2000, 1, 1))
    except CronSimError as exc:
        raise Invalid(f"invalid cron line {text!r}: {exc}", CRON_HINT) from None
    return line, None


def check_zone(name: str) -> str:
    """An IANA time zone name that zoneinfo knows; Invalid otherwise."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise Invalid(
            f"unknown time zone {name!r}", "write an IANA name such as Europe/Berlin or UTC"
        ) from None
    return name


@lru_cache(maxsize=64)
def zone(name: str | None) -> tzinfo:
    """The schedule's zone: its IANA name, else the local zone ($TZ, /etc/localtime, UTC)."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    if name is not None:
        return ZoneInfo(name)
    local = os.environ.get("TZ", "").lstrip(":")
    try:
        if local:
            return ZoneInfo(local)
        with open("/etc/localtime", "rb") as handle:
            return ZoneInfo.from_file(handle, key="localtime")
    except (OSError, ValueError, ZoneInfoNotFoundError):
        return ZoneInfo("UTC")


def next_slot(schedule: Schedule, after: float, anchor: float) -> float:
    """The first slot strictly after `after` (epoch seconds). An interval's slots are
    anchor + k * every (the anchor is when the schedule was armed)."""
    if schedule.every is not None:
        steps = math.floor((after - anchor) / schedule.every) + 1
        return anchor + max(1, steps) * schedule.every
    assert schedule.cron is not None
    from cronsim import CronSim

    start = datetime.fromtimestamp(after, zone(schedule.timezone))
    return next(CronSim(schedule.cron, start)).timestamp()
