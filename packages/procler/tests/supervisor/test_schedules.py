"""Schedules against real processes, in-process: the supervisor runs in the test's event
loop with wall time injected through the Clock seam (cron slots, daylight-saving changes,
catch-up), waits and durations real. One end-to-end run uses the real CLI and `@every 1s`."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from procler_testkit.harness import PY, alive
from procler_testkit.in_process import Commands, project
from procler_testkit.in_process import supervise_booted as supervise

from procler.supervisor.clock import Clock
from procler.supervisor.core import Supervisor
from procler.supervisor.runtime import ProcessRuntime

BOUND = 60.0
QUICK = f'[{PY}, -c, "pass"]'
LONG = f'[{PY}, -c, "import time; time.sleep(600)"]'


class WallClock(Clock):
    """Wall time set by the test; monotonic time and timed waits stay real."""

    def __init__(self, now: float) -> None:
        self.now = now
        self._moved: asyncio.Event | None = None

    def time(self) -> float:
        return self.now

    async def sleep_until(self, wall: float) -> None:
        while self.now < wall:
            if self._moved is None:
                self._moved = asyncio.Event()
            await asyncio.wait_for(self._moved.wait(), BOUND)

    def set(self, now: float) -> None:
        self.now = now
        if self._moved is not None:
            self._moved.set()
            self._moved = None


def utc(
    year: int, month: int, day: int, hour: int, minute: int, second: int = 0, zone: str = "UTC"
) -> float:
    return datetime(year, month, day, hour, minute, second, tzinfo=ZoneInfo(zone)).timestamp()


async def until(rt: ProcessRuntime, pred: Callable[[ProcessRuntime], bool]) -> None:
    assert await rt.wait_until(pred, BOUND), (rt.status, rt.run)


def test_a_cron_slot_fires_in_its_time_zone_across_a_daylight_saving_jump(tmp_path: Path) -> None:
    root = project(
        tmp_path,
        f"  job:\n    args: {QUICK}\n"
        "    schedule: {cron: '30 2 * * *', timezone: Europe/Berlin}\n",
    )
    clock = WallClock(utc(2026, 3, 28, 12, 0, zone="Europe/Berlin"))

    async def scenario(sup: Supervisor, h: Commands) -> None:
        started = await h.start({"name": "job"})
        assert (started["status"], started["schedule"]["next_run"]) == (
            "scheduled",
            "2026-03-29T01:00:00.000000Z",  # 02:30 does not exist that night: 03:00 CEST
        )
        assert started["note"].startswith("start armed the schedule")
        assert (await h.why({"name": "job"}))["why"] == (
            "job is scheduled: its next run is at 2026-03-29T01:00:00.000000Z"
        )
        clock.set(utc(2026, 3, 29, 1, 0))
        rt = sup.runtimes["job"]
        await until(rt, lambda r: r.run == 1 and r.status == "scheduled")
        status = await h.status({"name": "job"})
        last = status["schedule"]["last_run"]
        assert (last["trigger"], last["slot"], last["exit_code"], last["reason"]) == (
            "schedule",
            "2026-03-29T01:00:00.000000Z",
            0,
            "exit code 0",
        )
        assert (status["schedule"]["next_run"], status["schedule"]["runs"]) == (
            "2026-03-30T00:30:00.000000Z",
            1,
        )
        assert status["last_exit"]["reason"] == "exit code 0"

    supervise(root, clock, scenario)


def test_jitter_fires_within_its_bound_and_keeps_the_planned_slot(tmp_path: Path) -> None:
    root = project(
        tmp_path, f"  job:\n    args: {QUICK}\n    schedule: {{cron: '@hourly', jitter: 30s}}\n"
    )
    clock = WallClock(utc(2026, 1, 1, 10, 59))

    async def scenario(sup: Supervisor, h: Commands) -> None:
        await h.start({"name": "job"})
        clock.set(utc(2026, 1, 1, 11, 0, 30))  # the slot plus the whole jitter
        await until(sup.runtimes["job"], lambda r: r.run == 1 and r.status == "scheduled")
        last = (await h.status({"name": "job"}))["schedule"]["last_run"]
        assert (last["trigger"], last["slot"]) == ("schedule", "2026-01-01T11:00:00.000000Z")

    supervise(root, clock, scenario)


def test_catch_up_runs_once_for_slots_missed_while_no_supervisor_ran(tmp_path: Path) -> None:
    root = project(
        tmp_path,
        f"  caught:\n    args: {QUICK}\n    schedule: {{cron: '@hourly', catch_up: one}}\n"
        f"  plain:\n    args: {QUICK}\n    schedule: '@hourly'\n",
    )
    clock = WallClock(utc(2026, 1, 1, 10, 30))

    async def arm(sup: Supervisor, h: Commands) -> None:
        await h.up({})

    supervise(root, clock, arm)
    clock.set(utc(2026, 1, 1, 13, 15))  # 11:00, 12:00 and 13:00 passed with no supervisor

    async def after(sup: Supervisor, h: Commands) -> None:
        await until(sup.runtimes["caught"], lambda r: r.run == 1 and r.status == "scheduled")
        for _ in range(500):  # the run's record is written as it ends: wait for it (bounded)
            listed = await h.schedule_list({"runs": 5})
            if listed["schedules"][0]["history"]:
                break
            await asyncio.sleep(0.01)
        assert [
            (s["name"], s["status"], s["runs"], s["next_run"], [r["trigger"] for r in s["history"]])
            for s in listed["schedules"]
        ] == [
            ("caught", "scheduled", 1, "2026-01-01T14:00:00.000000Z", ["catch_up"]),
            ("plain", "scheduled", 0, "2026-01-01T14:00:00.000000Z", []),
        ]

    supervise(root, clock, after)


def test_overlap_skip_queue_and_replace(tmp_path: Path) -> None:
    root = project(
        tmp_path,
        "".join(
            f"  {policy}:\n    args: {LONG}\n    schedule: {{interval: 1h, overlap: {policy}}}\n"
            for policy in ("skip", "queue", "replace")
        ),
    )

    async def scenario(sup: Supervisor, h: Commands) -> None:
        async def now(name: str) -> str:
            answer = await h.schedule_run_now({"name": name})
            return str(answer["run_now"])

        assert [await now("skip"), await now("skip")] == ["started", "skipped"]
        assert (await h.status({"name": "skip"}))["schedule"]["skipped"] == 1

        queue = sup.runtimes["queue"]
        assert [await now("queue"), await now("queue"), await now("queue")] == [
            "started",
            "queued",
            "skipped",
        ]
        assert queue.proc is not None and queue.proc.pid is not None
        os.kill(queue.proc.pid, signal.SIGTERM)  # the first run ends: the queued one starts
        await until(queue, lambda r: r.run == 2 and r.status == "running")

        replace = sup.runtimes["replace"]
        assert await now("replace") == "started"
        assert replace.proc is not None
        first = replace.proc.pid
        assert await now("replace") == "replacing"
        await until(replace, lambda r: r.run == 2 and r.status == "running")
        runs = (await h.schedule_list({"name": "replace", "runs": 2}))["schedules"][0]["history"]
        replaced = runs[1]["reason"]
        assert [r["trigger"] for r in runs] == ["manual", "manual"]
        assert (runs[0]["reason"], replaced.split(" at ")[0], replaced.endswith(" a new run")) == (
            None,
            "replaced: the manual run",
            True,
        )
        assert first is not None and not alive(first)

    supervise(root, Clock(), scenario)


def test_a_run_past_its_timeout_is_killed_with_its_group(tmp_path: Path) -> None:
    child = f"[{PY}, -c, \"import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)']); time.sleep(600)\"]"
    root = project(
        tmp_path, f"  slow:\n    args: {child}\n    schedule: {{interval: 1h, timeout: 500ms}}\n"
    )

    async def scenario(sup: Supervisor, h: Commands) -> None:
        rt = sup.runtimes["slow"]
        await h.start({"name": "slow"})
        assert (await h.schedule_run_now({"name": "slow"}))["run_now"] == "started"
        assert rt.proc is not None and rt.proc.pid is not None
        pgid = rt.proc.pid
        await until(rt, lambda r: r.run == 1 and r.status == "scheduled")
        status = await h.status({"name": "slow"})
        assert (status["last_exit"]["reason"], status["schedule"]["last_run"]["reason"]) == (
            "timed_out",
            "timed_out",
        )
        left = [p for p in os.listdir("/proc") if p.isdigit() and _group(int(p)) == pgid]
        assert left == []

    supervise(root, Clock(), scenario)


def _group(pid: int) -> int | None:
    try:
        return os.getpgid(pid) if alive(pid) else None
    except OSError:
        return None


def test_stop_pauses_start_resumes_and_run_now_runs_a_paused_one_once(tmp_path: Path) -> None:
    root = project(tmp_path, f"  job:\n    args: {QUICK}\n    schedule: '@hourly'\n")
    clock = WallClock(utc(2026, 1, 1, 10, 59))

    async def scenario(sup: Supervisor, h: Commands) -> None:
        rt = sup.runtimes["job"]
        assert (await h.start({"name": "job"}))["status"] == "scheduled"
        stopped = await h.stop({"name": "job"})
        assert (
            stopped["status"],
            stopped["schedule"]["paused"],
            stopped["schedule"]["next_run"],
        ) == (
            "stopped",
            True,
            None,
        )
        assert stopped["note"].startswith("stop paused the schedule")
        assert (await h.why({"name": "job"}))["why"] == (
            "job's schedule is paused; `procler start job` arms it again"
        )
        assert (await h.schedule_run_now({"name": "job"}))["run_now"] == "started"
        await until(rt, lambda r: r.run == 1 and r.status == "stopped")  # still paused
        clock.set(utc(2026, 1, 1, 11, 0, 30))  # 11:00 passed while paused: not caught up
        resumed = await h.schedule_resume({"name": "job"})
        assert (resumed["status"], resumed["already_armed"], resumed["schedule"]["next_run"]) == (
            "scheduled",
            False,
            "2026-01-01T12:00:00.000000Z",
        )
        paused = await h.schedule_pause({"name": "job"})
        assert (paused["status"], paused["already_paused"]) == ("stopped", False)
        again = await h.schedule_pause({"name": "job"})
        assert again["already_paused"] is True
        assert (await h.schedule_resume({"name": "job"}))["status"] == "scheduled"
        assert [
            r["trigger"] for r in (await h.schedule_list({"runs": 5}))["schedules"][0]["history"]
        ] == ["manual"]

    supervise(root, clock, scenario)


def test_reload_changes_adds_and_removes_schedules(tmp_path: Path) -> None:
    root = project(
        tmp_path,
        f"  kept:\n    args: {QUICK}\n    schedule: '@hourly'\n"
        f"  gone:\n    args: {QUICK}\n    schedule: '@hourly'\n",
    )
    clock = WallClock(utc(2026, 1, 1, 11, 10))
    config = root / ".procler" / "config.yaml"

    async def scenario(sup: Supervisor, h: Commands) -> None:
        await h.up({})
        config.write_text(
            "version: 1\nprocesses:\n"
            f"  kept:\n    args: {QUICK}\n    schedule: '30 * * * *'\n"
            f"  added:\n    args: {QUICK}\n    schedule: '@hourly'\n"
        )
        stamp = config.stat().st_mtime + 5
        os.utime(config, (stamp, stamp))
        await h.reload({})
        assert sorted(sup.schedules.entries) == ["added", "kept"]
        kept = await h.status({"name": "kept"})
        assert (kept["status"], kept["schedule"]["next_run"]) == (
            "scheduled",
            "2026-01-01T11:30:00.000000Z",
        )
        # the stack is up: a schedule the config adds is armed, as `up` of it would
        added = await h.status({"name": "added"})
        assert (added["status"], added["schedule"]["next_run"], added["schedule"]["runs"]) == (
            "scheduled",
            "2026-01-01T12:00:00.000000Z",
            0,
        )

    supervise(root, clock, scenario)
