"""Health checking of one run: probes early and often until ready, then every interval.

Readiness is noticed fast: until the first success, probes come every 5 ms for tcp and
http (a refused loopback connect costs tens of microseconds) and every 50 ms for exec (a
process each time) during the first FAST_WINDOW seconds of a run, then the gap grows by
half each time up to `interval`. A process ready in 300 ms is seen healthy a few ms later,
not after a 10 s period; once healthy, or past the window, no fast probing is left.
Until its first success, a tcp or http check is also tried at once when the process
prints (a server says it listens right after it does: the line wakes the probe, not the
next tick), and a log check waits on its line alone. Once healthy: every `interval`.

A liveness check (`liveness:`) is probed at its pace from the start: first after
`start_period` (or one `interval`), then every `interval`; `retries` failures in a row make
it unhealthy, which ends the run (the runtime applies the restart policy). Its log probe is
a heartbeat: it passes when a matching line came since the previous probe.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from procler import states
from procler.config.model import HealthCheck
from procler.patterns import compile_pattern
from procler.supervisor.clock import Clock, iso
from procler.supervisor.probes import http_probe, tcp_probe

# Runs an exec check in the process's context: (command, timeout) -> (ok, output).
ExecProbe = Callable[[str, float], Awaitable[tuple[bool, str]]]
# Told of each change: (status from procler.states, reason, whether to restart the run).
OnChange = Callable[[str, str, bool], None]
# Told of every move of the verdict, for the event stream: (from, to, reason).
OnMove = Callable[[str, str, str], None]

FIRST_DELAY = {"tcp": 0.005, "http": 0.005, "exec": 0.05, "log": 0.05}
WOKEN_BY_OUTPUT = ("tcp", "http")  # cheap probes: tried again as soon as a line comes
FAST_WINDOW = 2.0
BACKOFF = 1.5


class HealthProber:
    def __init__(
        self,
        check: HealthCheck,
        clock: Clock,
        exec_probe: ExecProbe,
        on_change: OnChange,
        on_move: OnMove | None = None,
        *,
        liveness: bool = False,
    ) -> None:
        self.check = check
        self.liveness = liveness
        self.label = "liveness check" if liveness else "health check"
        self.clock = clock
        self.exec_probe = exec_probe
        self.on_change = on_change
        self.on_move = on_move
        self.status = states.HEALTH_STOPPED  # a verdict of procler.states' health machine
        self.failures = 0
        self.passes = 0  # passes in a row, towards `successes`
        self.checks = 0
        self.last_check_at: float | None = None
        self.last_output = ""
        self.since: float | None = None  # when status last changed
        self.was_healthy = False
        self._pattern = compile_pattern(check.log) if check.log else None
        self._log_matched = asyncio.Event()
        self._printed = asyncio.Event()  # a line came since the last probe began
        self._task: asyncio.Task[None] | None = None
        self._run_started = 0.0
        self._next_count_at = 0.0

    def summary(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "kind": self.check.kind,
            "last_check_at": iso(self.last_check_at),
            "last_output": self.last_output,
            "failures": self.failures,
            "checks": self.checks,
            "since": iso(self.since),
        }

    def begin(self) -> None:
        """A new run started: reset and probe it."""
        self.end()
        self._move(states.HEALTH_STARTING, self._note("run started"))
        self.failures, self.passes, self.checks, self.was_healthy = 0, 0, 0, False
        self.last_output, self.since = "", None
        self._log_matched = asyncio.Event()
        self._printed = asyncio.Event()
        self._run_started = self.clock.monotonic()
        self._next_count_at = self._run_started + self.check.interval
        self._task = asyncio.create_task(self._paced() if self.liveness else self._loop())

    def cancel(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None

    def end(self) -> None:
        """The run ended: stop probing; health is unknown until the next run."""
        self.cancel()
        if self.status != states.HEALTH_STOPPED:
            self._move(states.HEALTH_STOPPED, self._note("run ended"))
            self.since = self.clock.time()

    def _note(self, text: str) -> str:
        return f"liveness check: {text}" if self.liveness else text

    def on_line(self, text: str) -> None:
        self._printed.set()
        if (
            self._pattern is not None
            and (self.liveness or not self._log_matched.is_set())
            and self._pattern.search(text)
        ):
            self.last_output = text[:200]
            self._log_matched.set()

    async def probe(self) -> tuple[bool, str]:
        check = self.check
        if check.kind == "log" and self.liveness:  # a heartbeat: a line since the last probe
            seen = self._log_matched.is_set()
            self._log_matched.clear()
            return seen, self.last_output if seen else "no matching line since the last check"
        if check.kind == "log":
            return self._log_matched.is_set(), self.last_output or "no matching line yet"
        if check.kind == "tcp" and check.tcp is not None:
            return await tcp_probe(check.tcp, check.timeout)
        if check.kind == "http" and check.http is not None:
            return await http_probe(check.http, check.timeout)
        assert check.exec is not None
        return await self.exec_probe(check.exec, check.timeout)

    async def _loop(self) -> None:
        kind = self.check.kind
        delay = FIRST_DELAY[kind]
        while True:
            if kind == "log" and self.status != states.HEALTH_HEALTHY:
                # No polling needed: wake as soon as the line arrives, or when its absence
                # counts as a failure (so it turns unhealthy at states.unhealthy_after).
                await self.clock.wait(self._log_matched, self._until_counted())
            self._printed.clear()
            await self._check_once()
            if self.status == states.HEALTH_HEALTHY or self.passes:
                delay = self.check.interval  # passed: the next passes count at its pace
            elif self.clock.monotonic() - self._run_started > FAST_WINDOW:
                delay = min(delay * BACKOFF, self.check.interval)
            if kind in WOKEN_BY_OUTPUT and not self.was_healthy and not self.passes:
                # not ready yet: probe again at the next tick, or once a line is printed
                await self.clock.wait(self._printed, delay)
            elif kind != "log" or self.status == states.HEALTH_HEALTHY:
                await self.clock.sleep(delay)

    async def _paced(self) -> None:
        """The liveness loop: no eager probing, each probe counts."""
        await self.clock.sleep(self.check.start_period or self.check.interval)
        while True:
            await self._check_once()
            await self.clock.sleep(self.check.interval)

    async def _check_once(self) -> None:
        try:
            ok, output = await self.probe()
        except Exception as exc:  # noqa: BLE001 - a broken probe is a failed check
            ok, output = False, f"probe error: {type(exc).__name__}: {exc}"
        self._record(ok, output)

    def _until_counted(self) -> float:
        """Seconds until a failure would count (past start_period and the next interval)."""
        counts_at = max(self._next_count_at, self._run_started + self.check.start_period)
        return max(0.0, counts_at - self.clock.monotonic())

    def _record(self, ok: bool, output: str) -> None:
        now = self.clock.time()
        self.checks += 1
        self.last_check_at = now
        self.last_output = output
        in_grace = self.clock.monotonic() - self._run_started < self.check.start_period
        if ok:
            self.failures = 0
            self.passes += 1
            if self.passes >= self.check.successes:
                self._become(states.HEALTH_HEALTHY, f"{self.label} passed: {output}")
            return
        self.passes = 0
        if in_grace and not self.was_healthy:
            return  # failures during start_period do not count
        now_mono = self.clock.monotonic()
        if now_mono < self._next_count_at and not self.liveness:
            return  # an early readiness probe: failures count once per interval, as in docker
        self._next_count_at = now_mono + self.check.interval
        self.failures += 1
        if self.failures >= self.check.retries:
            self._become(
                states.HEALTH_UNHEALTHY, f"{self.label} failed {self.failures} times: {output}"
            )

    def _move(self, status: str, reason: str) -> None:
        states.check_health(self.status, status)
        old, self.status = self.status, status
        if self.on_move is not None:
            self.on_move(old, status, reason)

    def _become(self, status: str, reason: str) -> None:
        """A verdict: tell the runtime (which restarts a run that turned unhealthy, or ends
        one whose liveness check failed)."""
        if status == self.status:
            return
        self._move(status, reason)
        self.since = self.clock.time()
        was_healthy = self.was_healthy
        self.was_healthy = self.was_healthy or status == states.HEALTH_HEALTHY
        restart = status == states.HEALTH_UNHEALTHY and (was_healthy or self.liveness)
        self.on_change(states.HEALTH_TO_STATUS[status], reason, restart)
