"""`schedule:` in the config: its value specs (checked at load, with line and column) and
the typed Schedule built from a checked value."""

from __future__ import annotations

from typing import Any

from procler.config.model import Schedule
from procler.config.schedule import check_zone, interval, read_cron
from procler.config.specs import INVALID, Bool, Duration, Either, Enum, Str, Struct
from procler.config.yaml_nodes import YNode

OVERLAPS = ("skip", "queue", "replace")
CATCH_UPS = ("none", "one")


class CronText(Str):
    """A cron line, a nickname or @every DURATION (the seed's `schedule:` string)."""

    what = "a cron line"
    description = "five cron fields (lists, ranges, steps), @hourly/@daily/@weekly/@monthly/@yearly, or @every DURATION (at least 1s)"

    def parse(self, node: YNode) -> Any:
        read_cron(node.text)
        return node.text


class TimeZoneName(Str):
    what = "an IANA time zone"
    description = "an IANA time zone such as Europe/Berlin (default: the machine's local zone)"

    def derived_example(self) -> Any:
        return "Europe/Berlin"

    def parse(self, node: YNode) -> Any:
        return check_zone(node.text)


class Interval(Duration):
    def parse(self, node: YNode) -> Any:
        return interval(super().parse(node), node.text)


SCHEDULE = Either(
    CronText(sample="*/5 * * * *"),
    Struct(
        {
            "cron": CronText(sample="*/5 * * * *"),
            "interval": Interval(),
            "timezone": TimeZoneName(),
            "run_on_start": Bool(),
            "overlap": Enum(*OVERLAPS),
            "catch_up": Enum(*CATCH_UPS),
            "jitter": Duration(),
            "timeout": Duration(),
        },
        exclusive=("cron", "interval"),
        need_one=True,
        about={
            "cron": "when it runs, as a cron line (one of cron, interval)",
            "interval": "when it runs, as the time between two runs (one of cron, interval)",
            "timezone": "the zone cron lines are read in",
            "run_on_start": ("also run once when the schedule is armed", False),
            "overlap": (
                "a slot that comes while the previous run goes on: skip it, queue it (one), "
                "or stop the run and start again",
                "skip",
            ),
            "catch_up": ("run once for slots missed while no supervisor ran", "none"),
            "jitter": ("each run starts up to this much later than its slot, at random", "0s"),
            "timeout": "a run longer than this is stopped (default: none)",
        },
    ),
)


def schedule_of(raw: Any) -> Schedule | None:
    """The Schedule of a checked `schedule:` value; None when it was invalid (a finding
    says why) or lacks its cron/interval."""
    if isinstance(raw, str):
        raw = {"cron": raw}
    fields = {k: v for k, v in raw.items() if v is not INVALID}
    given_cron, given_every = fields.pop("cron", None), fields.pop("interval", None)
    if given_cron is not None:
        written = given_cron
        cron, every = read_cron(written)
    elif given_every is not None:
        cron, every, written = None, given_every, f"@every {given_every:g}s"
    else:
        return None
    return Schedule(cron=cron, every=every, written=written, **fields)
