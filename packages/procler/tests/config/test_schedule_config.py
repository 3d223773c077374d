"""`schedule:` read from the config (the seed's cron string and the mapping), its errors
with line and column, and the slots it gives (time zones, daylight-saving changes)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from procler_testkit.config_helpers import errors_of, write_config

from procler.config.load import check_config
from procler.config.model import Schedule
from procler.config.schedule import next_slot

SLEEP = "command: 'true'"


def schedule_of(tmp_path: Path, value: str) -> Schedule | None:
    path = write_config(tmp_path, f"version: 1\nprocesses:\n  job:\n    {SLEEP}\n    {value}\n")
    cfg, findings = check_config(str(path), {})
    assert findings.as_dicts() == []
    assert cfg is not None
    return cfg.processes["job"].schedule


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ('schedule: "*/15 9-17 * * 1-5"', Schedule(cron="*/15 9-17 * * 1-5", written="*/15 9-17 * * 1-5")),
        ("schedule: '@hourly'", Schedule(cron="0 * * * *", written="@hourly")),
        ("schedule: '@daily'", Schedule(cron="0 0 * * *", written="@daily")),
        ("schedule: '@every 10m'", Schedule(every=600.0, written="@every 10m")),
        (
            "schedule: {interval: 90s, overlap: queue, catch_up: one, timeout: 5m, jitter: 2s, run_on_start: true}",
            Schedule(every=90.0, written="@every 90s", overlap="queue", catch_up="one", timeout=300.0, jitter=2.0, run_on_start=True),
        ),
        (
            "schedule: {cron: '30 2 * * *', timezone: Europe/Berlin, overlap: replace}",
            Schedule(cron="30 2 * * *", written="30 2 * * *", timezone="Europe/Berlin", overlap="replace"),
        ),
    ],
)  # fmt: skip
def test_a_schedule_is_read_as_a_typed_field(
    tmp_path: Path, value: str, expected: Schedule
) -> None:
    assert schedule_of(tmp_path, value) == expected


@pytest.mark.parametrize(
    ("value", "column", "message"),
    [
        ("schedule: '61 * * * *'", 15, "invalid cron line '61 * * * *': Bad minute"),
        ("schedule: '* * * *'", 15, "cron line '* * * *' does not have five fields"),
        ("schedule: '@sometimes'", 15, "unknown cron nickname '@sometimes'"),
        ("schedule: '@every 100ms'", 15, "interval '100ms' is shorter than 1s"),
        ("schedule: {cron: '0 * * * *', timezone: Mars/Olympus}", 45, "unknown time zone 'Mars/Olympus'"),
        ("schedule: {cron: '0 * * * *', interval: 1m}", 15, "cron and interval exclude each other"),
        ("schedule: {overlap: skip}", 15, "needs one of cron, interval"),
        ("schedule: {cron: '0 * * * *', overlap: never}", 44, "'never' is not one of skip, queue, replace"),
    ],
)  # fmt: skip
def test_a_bad_schedule_is_an_error_at_its_line_and_column(
    tmp_path: Path, value: str, column: int, message: str
) -> None:
    path = write_config(tmp_path, f"version: 1\nprocesses:\n  job:\n    {SLEEP}\n    {value}\n")
    assert [(e["line"], e["column"], e["message"]) for e in errors_of(path)] == [
        (5, column, message)
    ]


def test_replicas_with_a_schedule_is_an_error_at_replicas(tmp_path: Path) -> None:
    path = write_config(
        tmp_path,
        f"version: 1\nprocesses:\n  job:\n    {SLEEP}\n    replicas: 2\n    schedule: '@hourly'\n",
    )
    assert [(e["path"], e["line"], e["column"]) for e in errors_of(path)] == [
        ("processes.job.replicas", 5, 15)
    ]


def at(zone: str, year: int, month: int, day: int, hour: int, minute: int) -> float:
    return datetime(year, month, day, hour, minute, tzinfo=ZoneInfo(zone)).timestamp()


def iso_in(zone: str, ts: float) -> str:
    return datetime.fromtimestamp(ts, ZoneInfo(zone)).isoformat()


def test_cron_slots_follow_the_time_zone_across_daylight_saving_changes() -> None:
    berlin = Schedule(cron="30 2 * * *", timezone="Europe/Berlin")
    # 2026-03-29: clocks jump from 02:00 to 03:00; the 02:30 job runs at 03:00 that night
    first = next_slot(berlin, at("Europe/Berlin", 2026, 3, 28, 12, 0), 0.0)
    second = next_slot(berlin, first, 0.0)
    assert [iso_in("Europe/Berlin", t) for t in (first, second)] == [
        "2026-03-29T03:00:00+02:00",
        "2026-03-30T02:30:00+02:00",
    ]
    # 2026-11-01 in New York: 01:00-02:00 happens twice; a fixed-hour job runs once
    york = Schedule(cron="30 1 * * *", timezone="America/New_York")
    first = next_slot(york, at("America/New_York", 2026, 10, 31, 12, 0), 0.0)
    second = next_slot(york, first, 0.0)
    assert [iso_in("America/New_York", t) for t in (first, second)] == [
        "2026-11-01T01:30:00-04:00",
        "2026-11-02T01:30:00-05:00",
    ]


def test_interval_slots_count_from_the_anchor_not_from_the_last_run() -> None:
    every = Schedule(every=10.0)
    assert [next_slot(every, after, 100.0) for after in (100.0, 104.5, 110.0, 135.2)] == [
        110.0,
        110.0,
        120.0,
        140.0,
    ]
