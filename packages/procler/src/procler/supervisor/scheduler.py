"""Schedules: the supervisor fires each scheduled process as a one-shot at its slots.

A schedule is armed while its process's desired state is running (`start`, `up`,
`schedule resume`) and paused otherwise (`stop`, `schedule pause`). Between runs the
process is `scheduled`. Each slot is computed from the schedule (config/schedule.py) in
wall time, through the Clock seam. A slot that comes while the previous run goes on
follows `overlap`: skip (counted and logged), queue (one) or replace. A run longer than
`timeout` is stopped (its process group), `last_exit.reason: timed_out`. Every run is
kept in the state database (schedule_store.py) with its trigger.

`apply(added, changed, removed)` is the one way schedules are registered, changed and
dropped: the supervisor calls it with what a config load changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Iterable
from typing import Any

from agentcli.errors import AgentError
from procler import states
from procler.config.model import ProcessSpec, Schedule
from procler.config.schedule import next_slot
from procler.supervisor.clock import Clock, iso
from procler.supervisor.host import background
from procler.supervisor.runtime import ProcessRuntime
from procler.supervisor.schedule_store import ScheduleStore, summary

log = logging.getLogger("procler.supervisor")

SCHEDULE, MANUAL, CATCH_UP = "schedule", "manual", "catch_up"
TIMED_OUT = "timed_out"
RUN_WAIT = 3600.0  # a run with no timeout is waited for in steps this long
CLOSE_WAIT = 10.0  # bound on runs recording their end while the supervisor stops


class Entry:
    """One registered schedule and the tasks that carry it out."""

    def __init__(self, name: str, schedule: Schedule, armed: bool) -> None:
        self.name = name
        self.schedule = schedule
        self.armed = armed
        self.anchor = 0.0  # when it was armed: an interval's slots count from here
        self.last_slot: float | None = None
        self.next_run: float | None = None
        self.slots: asyncio.Task[None] | None = None
        self.runs: asyncio.Task[None] | None = None
        self.queued: tuple[float | None, str] | None = None
        self.attempts = 0  # runs tried (started, or failed to start)

    @property
    def running(self) -> bool:
        return self.runs is not None and not self.runs.done()


class Scheduler:
    def __init__(
        self, runtimes: dict[str, ProcessRuntime], store: ScheduleStore, clock: Clock
    ) -> None:
        self.runtimes = runtimes
        self.store = store
        self.clock = clock
        self.entries: dict[str, Entry] = {}
        self.started = False  # slots fire only once the supervisor has booted
        self._closing = False
        self._replacing: set[asyncio.Future[Any]] = set()

    # -- registration ---------------------------------------------------------------------

    def apply(
        self, added: Iterable[ProcessSpec], changed: Iterable[ProcessSpec], removed: Iterable[str]
    ) -> None:
        """Register the schedules of added processes, follow changed ones (a new schedule
        counts its slots from now; a run going on is left to end; an equal schedule is left
        alone), drop removed ones. A schedule armed here fires at its first slot, not
        before (unless run_on_start)."""
        for name in removed:
            self._drop(name)
        for spec in (*added, *changed):
            entry = self.entries.get(spec.name)
            if spec.schedule is None:
                self._drop(spec.name)
            elif entry is None:
                rt = self.runtimes[spec.name]
                entry = Entry(spec.name, spec.schedule, rt.desired == states.DESIRED_RUNNING)
                self.entries[spec.name] = entry
                if self.started and entry.armed:
                    self._arm(entry, "schedule registered", catch_up=False)
            elif entry.schedule != spec.schedule:
                entry.schedule = spec.schedule
                if self.started and entry.armed:
                    self._arm(entry, "schedule changed", catch_up=False, on_start=False)

    def await_slot(self, name: str, why: str) -> None:
        """A run that was not the schedule's ended (the service a reload made a scheduled
        job): an armed schedule waits for its next slot, as `up` of that config leaves it."""
        entry = self.entries.get(name)
        rt = self.runtimes.get(name)
        if entry is None or rt is None or not entry.armed:
            return
        rt.desired = states.DESIRED_RUNNING
        if rt.status in states.ARMABLE:
            rt.mark(states.SCHEDULED, f"{why}; next run at {iso(entry.next_run)}")

    def _drop(self, name: str) -> None:
        entry = self.entries.pop(name, None)
        if entry is None:
            return
        self._halt(entry)
        rt = self.runtimes.get(name)
        if rt is not None and rt.status == states.SCHEDULED:
            rt.mark(states.STOPPED, "schedule removed from the definition")

    def _halt(self, entry: Entry) -> None:
        if entry.slots is not None:
            entry.slots.cancel()
        entry.slots, entry.next_run, entry.queued = None, None, None

    async def start(self) -> None:
        """At supervisor start: close the runs a dead predecessor lost, then arm every
        armed schedule (`catch_up: one` runs once when a slot passed while none ran)."""
        lost = self.store.close_lost(self.clock.time())
        if lost:
            log.info("schedules: %d run(s) lost with the previous supervisor", lost)
        self.started = True
        for entry in self.entries.values():
            if entry.armed:
                self._arm(entry, "schedule armed at supervisor start", catch_up=True)

    def halt(self) -> None:
        """No slot fires from now on (the supervisor is stopping)."""
        self._closing = True
        for entry in self.entries.values():
            self._halt(entry)

    async def close(self) -> None:
        """Let the runs stopped by the shutdown record their end (bounded), then cancel."""
        runs = [e.runs for e in self.entries.values() if e.runs is not None and not e.runs.done()]
        if runs:
            await asyncio.wait(runs, timeout=CLOSE_WAIT)
        for task in runs:
            task.cancel()

    # -- arming and pausing ---------------------------------------------------------------

    def _arm(self, entry: Entry, why: str, catch_up: bool, on_start: bool = True) -> None:
        rt = self.runtimes[entry.name]
        now = self.clock.time()
        entry.armed = True
        rt.desired = states.DESIRED_RUNNING
        missed = (
            entry.schedule.catch_up == "one" and self._missed(entry, now) if catch_up else False
        )
        self._halt(entry)
        entry.anchor = entry.last_slot = now
        self.store.set_last_slot(entry.name, now)
        entry.next_run = next_slot(entry.schedule, now, entry.anchor)
        if rt.status in states.ARMABLE:
            rt.mark(states.SCHEDULED, f"{why}; next run at {iso(entry.next_run)}")
        else:
            rt.host.record(rt, rt.status, rt.status, f"{why}; next run at {iso(entry.next_run)}")
        entry.slots = asyncio.create_task(self._slots(entry))
        if missed:
            self._arrive(entry, None, CATCH_UP)
        elif on_start and entry.schedule.run_on_start:
            self._arrive(entry, None, SCHEDULE)

    def _missed(self, entry: Entry, now: float) -> bool:
        last = self.store.last_slot(entry.name)
        return last is not None and next_slot(entry.schedule, last, last) <= now

    def resume(self, name: str, why: str = "schedule resumed") -> dict[str, Any]:
        """Arm a paused schedule (`start`, `schedule resume`); idempotent."""
        entry = self.entries[name]
        if entry.armed and entry.slots is not None:
            return {"already_armed": True}
        self._arm(entry, why, catch_up=False)
        return {"already_armed": False}

    def pause(self, name: str, why: str = "schedule paused") -> dict[str, Any]:
        """No slot fires until resumed; a run going on is left to end (`stop` stops it)."""
        entry = self.entries[name]
        rt = self.runtimes[name]
        was = entry.armed
        entry.armed = False
        self._halt(entry)
        rt.desired = states.DESIRED_STOPPED
        if rt.status == states.SCHEDULED:
            rt.mark(states.STOPPED, why)
        elif was:
            rt.host.record(rt, rt.status, rt.status, why)
        return {"already_paused": not was}

    async def run_now(self, name: str, timeout: float) -> dict[str, Any]:
        """Fire a manual run now, under the schedule's overlap policy; a run started
        answers once it has started (or failed to), bounded by timeout."""
        entry = self.entries[name]
        before = entry.attempts
        done = self._arrive(entry, None, MANUAL)
        if done == "started":
            await self.runtimes[name].wait_until(lambda _: entry.attempts > before, timeout)
        return {"run_now": done}

    # -- slots and runs -------------------------------------------------------------------

    async def _slots(self, entry: Entry) -> None:
        # The first slot is the one armed (and answered as next_run): time that passed
        # before this task first ran must not skip it (armed just before 01:00, it fires at
        # 01:00). After a slot, the next one is looked for from now: a clock that jumped
        # ahead fires once, not once per slot it passed (catch_up decides about those).
        slot = entry.next_run
        while True:
            if slot is None:
                after = max(self.clock.time(), entry.last_slot or 0.0)
                slot = next_slot(entry.schedule, after, entry.anchor)
            entry.next_run = slot
            delay = random.uniform(0.0, entry.schedule.jitter) if entry.schedule.jitter else 0.0
            await self.clock.sleep_until(slot + delay)
            entry.last_slot = slot
            self.store.set_last_slot(entry.name, slot)
            self._arrive(entry, slot, SCHEDULE)
            slot = None

    def _arrive(self, entry: Entry, slot: float | None, trigger: str) -> str:
        """A slot (or a manual run) arrived: start a run, or apply the overlap policy.
        Answers what was done: started, queued, replacing or skipped."""
        if not entry.running:
            entry.runs = asyncio.create_task(self._run_all(entry, slot, trigger))
            return "started"
        rt = self.runtimes[entry.name]
        overlap = entry.schedule.overlap
        at = iso(slot if slot is not None else self.clock.time())
        if overlap == "queue" and entry.queued is None:
            entry.queued = (slot, trigger)
            rt.host.record(rt, rt.status, rt.status, f"{trigger} run at {at} queued")
            return "queued"
        if overlap == "replace":
            entry.queued = (slot, trigger)
            why = f"replaced: the {trigger} run at {at} starts a new run"
            background(self._replace(rt, why), self._replacing)
            return "replacing"
        self.store.count_skip(entry.name)
        rt.host.record(rt, rt.status, rt.status, f"{trigger} run at {at} skipped: a run goes on")
        return "skipped"

    async def _replace(self, rt: ProcessRuntime, why: str) -> None:
        armed = rt.desired
        with contextlib.suppress(AgentError):
            await rt.stop(why)
        rt.desired = armed

    async def _run_all(self, entry: Entry, slot: float | None, trigger: str) -> None:
        """Run once, then whatever was queued meanwhile; then wait for the next slot."""
        rt = self.runtimes[entry.name]
        while True:
            await self._run_once(entry, rt, slot, trigger)
            if entry.queued is None or self._closing:
                break
            (slot, trigger), entry.queued = entry.queued, None
        if self._closing:
            return
        if not entry.armed:  # a manual run of a paused schedule ended: paused again
            rt.desired = states.DESIRED_STOPPED
            if rt.status == states.SCHEDULED:
                rt.mark(states.STOPPED, "schedule paused")
        elif rt.status in states.ARMABLE:
            rt.mark(states.SCHEDULED, f"next run at {iso(entry.next_run)}")

    async def _run_once(
        self, entry: Entry, rt: ProcessRuntime, slot: float | None, trigger: str
    ) -> None:
        began = self.clock.monotonic()
        planned = f" (slot {iso(slot)})" if slot is not None else ""
        # recorded before the start: a quick run may end before start answers, and its
        # end is written as it leaves the alive statuses (before anyone sees `scheduled`)
        row = self.store.run_started(entry.name, slot, trigger, self.clock.time())

        def rested(r: ProcessRuntime) -> None:
            self.store.run_ended(row, self.clock.time(), r.last_exit)

        rt.on_rest = rested
        try:
            await rt.start(f"{trigger} run{planned}")
        except AgentError as err:  # the runtime recorded the failed start
            log.info("%s: scheduled run could not start: %s", entry.name, err.message)
            if rt.on_rest is rested:  # refused before it was starting
                rt.on_rest = None
                rested(rt)
            return
        finally:
            # while it runs, whatever its timing, its end leads to `scheduled` (_run_all
            # then pauses it again if the schedule is paused)
            rt.desired = states.DESIRED_RUNNING
            entry.attempts += 1
            rt.notify()  # run_now waits on it (a quick run may have ended already)
        run = rt.run

        def ended(r: ProcessRuntime) -> bool:
            return r.run != run or r.status not in states.ALIVE

        timeout = entry.schedule.timeout
        if timeout is not None:
            left = timeout - (self.clock.monotonic() - began)
            if not await rt.wait_until(ended, max(0.0, left)):
                await rt.stop(TIMED_OUT)
                rt.desired = states.DESIRED_RUNNING
        while not await rt.wait_until(ended, RUN_WAIT):
            pass

    # -- answers --------------------------------------------------------------------------

    def describe(self, name: str, runs: int = 0) -> dict[str, Any] | None:
        """The schedule part of a process's status; None for a process with none."""
        entry = self.entries.get(name)
        if entry is None:
            return None
        next_run = entry.next_run if entry.armed else None
        return summary(self.store, name, entry.schedule, next_run, entry.queued is not None, runs)
