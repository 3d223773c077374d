"""One process under supervision: its state machine, restart policy and output pump.

Every change of status goes through `_set`, which checks it against `procler.states`
and records it with a reason. The OS is reached only through the ExecutionContext and
the Clock, so these rules are tested with fakes and no sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from agentcli.errors import AgentError
from procler import states
from procler.config.fingerprint import spec_hash
from procler.config.model import HealthCheck, ProcessSpec, StopCommand
from procler.contexts.base import (
    ExecutionContext,
    ExitInfo,
    OutputBatch,
    RunningProcess,
    signal_number,
)
from procler.errors import ProcessNotRunning, StartFailed, StdinClosed
from procler.patterns import Pattern, compile_pattern
from procler.supervisor.clock import Clock, iso
from procler.supervisor.health import HealthProber
from procler.supervisor.whole_lines import WholeLines

TYPE_CHECKING = False
if TYPE_CHECKING:
    from procler.supervisor.previous_runs import PreviousRun

DRAIN_WAIT = 2.0  # bound on reading the rest of a run's output after it ended


class Host(Protocol):
    """What a runtime needs from its supervisor."""

    def environment(self, spec: ProcessSpec) -> dict[str, str]: ...
    def record(self, runtime: ProcessRuntime, src: str, dst: str, reason: str) -> None: ...
    def health(self, runtime: ProcessRuntime, src: str, dst: str, reason: str) -> None: ...
    def exited(self, runtime: ProcessRuntime, run: int | None) -> None: ...
    def spawned(self, runtime: ProcessRuntime, proc: RunningProcess) -> None: ...
    def reaped(self, runtime: ProcessRuntime, proc: RunningProcess) -> None: ...
    def output(self, runtime: ProcessRuntime, run: int, batch: OutputBatch) -> None: ...
    def specs_changed(self) -> None: ...


class ProcessRuntime:
    def __init__(
        self, spec: ProcessSpec, context: ExecutionContext, host: Host, clock: Clock
    ) -> None:
        self.spec = spec
        self.context = context
        self.host = host
        self.clock = clock
        self.status = states.STOPPED
        self.desired = states.DESIRED_STOPPED
        self.run = 0
        self.restarts = 0
        self.quick_crashes = 0  # runs in a row that crashed before they settled (states)
        self.proc: RunningProcess | None = None
        self.started_at: float | None = None
        self.last_exit: dict[str, Any] | None = None
        self.recent_stderr: deque[str] = deque(maxlen=20)
        self.lock = asyncio.Lock()
        self._changed = asyncio.Event()
        self._monitor: asyncio.Task[None] | None = None
        self._timer: asyncio.Task[None] | None = None
        self._user_start = False
        self.health: HealthProber | None = None  # the readiness check (`healthcheck:`)
        self.liveness: HealthProber | None = None  # `liveness:`: failing, it ends the run
        self._next: tuple[ProcessSpec, ExecutionContext] | None = None  # see redefine
        # Called once, in the same step, when the run leaves the alive statuses: a
        # schedule's history has the run's end before anyone sees `scheduled`.
        self.on_rest: Callable[[ProcessRuntime], None] | None = None
        host.specs_changed()
        # The definition of the last run that completed successfully in this session (under
        # this supervisor, or one killed before it: kept in state.db with its hash, until
        # `down` or `daemon stop` end the session), and that definition's hash.
        self.completed_spec: ProcessSpec | None = None
        self.completed_hash: str | None = None
        # Dependencies with `restart: true` that went down while we should run.
        self.waiting_for: set[str] = set()
        # ready_log_line: this run's stdout matched it (the log_ready condition)
        self.log_ready = False
        self._ready_compiled: tuple[str, Pattern] | None = None
        # Its run from a dead supervisor, still ending: no run starts before it is gone.
        self.previous: PreviousRun | None = None

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def _ready_line(self) -> Pattern | None:
        """The current spec's ready_log_line, compiled with RE2 (linear time: it runs on the
        event loop over every line of output)."""
        text = self.spec.ready_log_line
        if text is None:
            return None
        if self._ready_compiled is None or self._ready_compiled[0] != text:
            self._ready_compiled = (text, compile_pattern(text))
        return self._ready_compiled[1]

    def redefine(self, spec: ProcessSpec, context: ExecutionContext) -> None:
        """A new definition: a running process keeps its own until its next run."""
        if self.status in states.ALIVE:
            self._next = (spec, context)
        else:
            self.spec, self.context, self._next = spec, context, None
            self.host.specs_changed()

    def retarget(self, spec: ProcessSpec) -> None:
        """The same definition with its dependencies on a scaled process listed again (one
        entry per instance): taken at once, as it changes nothing about how it runs."""
        if self._next is not None:
            self._next = (spec, self._next[1])
        else:
            self.spec = spec
        self.host.specs_changed()

    def _set(self, new: str, reason: str) -> None:
        states.check(self.status, new)
        old, self.status = self.status, new
        if self.on_rest is not None and old in states.ALIVE and new not in states.ALIVE:
            rested, self.on_rest = self.on_rest, None
            rested(self)
        self.host.record(self, old, new, reason)
        self.notify()

    def completed(self, spec: ProcessSpec, saved_hash: str | None) -> None:
        """A new runtime whose last run completed in this session (saved_hash, from
        state.db) with this very definition: it is `exited`, as before the supervisor that
        ran it died, and `up` leaves it alone."""
        if saved_hash is not None and saved_hash == spec_hash(spec):
            self.status = states.EXITED
            self.completed_spec, self.completed_hash = spec, saved_hash

    def forget_completed(self) -> None:
        """The session ended (`down`, `daemon stop`): the next `up` runs it again."""
        self.completed_spec = self.completed_hash = None

    def mark(self, new: str, reason: str) -> None:
        """A change decided outside a run (a schedule armed or paused), checked like any."""
        self._set(new, reason)

    def notify(self) -> None:
        """Wake whoever waits on this process (a status, or the ready line, changed)."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_until(self, pred: Callable[[ProcessRuntime], bool], timeout: float) -> bool:
        """Wait (bounded) until pred holds; True if it did."""
        deadline = self.clock.monotonic() + timeout
        while not pred(self):
            left = deadline - self.clock.monotonic()
            if left <= 0:
                return False
            await self.clock.wait(self._changed, left)
        return True

    async def settled(self) -> None:
        """Wait until a start, stop or restart in flight has ended (it holds the lock)."""
        async with self.lock:
            pass

    # -- commands -------------------------------------------------------------------------

    async def start(self, reason: str = "start requested") -> dict[str, Any]:
        """Start unless already up; answers already_running for an idempotent repeat."""
        async with self.lock:
            if self.status in states.ALIVE:
                return {"already_running": True}
            self.desired = states.DESIRED_RUNNING
            self.restarts = self.quick_crashes = 0
            self._cancel_timer()
            # adopt_existing (daemon_mode): a daemon already running is followed, not started
            adopted = await self.context.adopt(self.spec) if self.spec.daemon else None
            if adopted is not None:
                await self._spawn(
                    f"adopted the running daemon (pid {adopted.pid})", user=True, adopted=adopted
                )
                return {"already_running": True, "adopted": True}
            await self._spawn(reason, user=True)
        return {"already_running": False}

    async def stop(self, reason: str = "stop requested", kill: bool = False) -> dict[str, Any]:
        """Stop the run: stop_signal, then SIGKILL after stop_timeout; with kill, SIGKILL at
        once, also to a run whose stop is already waiting out its stop_timeout."""
        if kill:
            self.desired = states.DESIRED_STOPPED  # its end is a stop, never a crash
            if self.status == states.STOPPING and self.proc is not None:
                try:  # noqa: SIM105 - a try the declared-errors walk reads as caught
                    await self.context.kill_now(self.proc)
                except AgentError:
                    pass  # best effort: the stop in progress answers for its run's end
        async with self.lock:
            self.desired = states.DESIRED_STOPPED
            if self.status == states.BACKOFF:
                self._cancel_timer()
                self._set(states.STOPPED, reason)
                self._take_next()
                return {"already_stopped": False}
            if self.status not in states.ALIVE:
                self.host.record(self, self.status, self.status, "desired stopped")
                return {"already_stopped": True}
            await self._stop_locked(reason, kill)
            # stopped for good: its row, `wait` and `up` read the definition it has now
            self._take_next()
        return {"already_stopped": False}

    async def restart(self, reason: str = "restart requested") -> dict[str, Any]:
        async with self.lock:
            self._cancel_timer()
            if self.status in states.ALIVE:
                await self._stop_locked(reason)
            elif self.status == states.BACKOFF:
                self._set(states.STOPPED, reason)
            self.desired = states.DESIRED_RUNNING
            self.restarts = self.quick_crashes = 0
            await self._spawn(reason, user=True)
        return {}

    async def readopt(self) -> bool:
        """After a supervisor restart: follow the run again when its context still has it
        (a labelled container, a daemon); whether it runs now."""
        async with self.lock:
            if self.status in states.ALIVE:
                return True
            try:
                adopted = await self.context.adopt(self.spec)
            except AgentError:
                return False  # e.g. engine unreachable: starting afresh records why
            if adopted is None:
                return False
            await self._spawn(
                "re-adopted: still running after supervisor restart", user=False, adopted=adopted
            )
            return True

    async def restore(self, reason: str, lost: bool, adopt: bool = True) -> None:
        """After a supervisor restart: re-adopt the run when its context still has it
        (unless that was asked already: `adopt` false); else record the run as lost (if
        one was open) and start it again when it should run (counts as a restart)."""
        if adopt and await self.readopt():
            return
        async with self.lock:
            if self.status in states.ALIVE:
                return
            if lost:
                self._exited(ExitInfo(None), "supervisor_lost", self.run)
                self.host.record(self, self.status, self.status, "run lost: the supervisor died")
            if self.desired == states.DESIRED_RUNNING:
                self.restarts += 1
                await self._spawn(reason, user=False)

    async def send(self, data: bytes, timeout: float) -> int:
        """Write to the current run's stdin (`stdin: true`): the bytes written."""
        if not self.spec.stdin:
            raise StdinClosed(
                f"{self.name} does not keep its stdin open",
                suggestion=f"add `stdin: true` to processes.{self.spec.replica_of or self.name} "
                f"in the config, then `procler restart {self.name}`",
            )
        if self.proc is None or self.status not in states.ALIVE or self.status == states.STOPPING:
            raise ProcessNotRunning(
                f"{self.name} is {self.status}: no run to send to",
                suggestion=f"start it first: `procler start {self.name}`",
            )
        return await self.proc.send(data, timeout)

    # -- internals ------------------------------------------------------------------------

    def _take_next(self) -> None:
        """The definition a reload gave while the process ran becomes its own."""
        if self._next is not None:
            (self.spec, self.context), self._next = self._next, None
            self.host.specs_changed()

    async def _spawn(
        self, reason: str, *, user: bool, adopted: RunningProcess | None = None
    ) -> None:
        if adopted is None:
            self._take_next()
        if self.previous is not None and adopted is None:
            await self._outlast_previous()
        self.completed_spec = self.completed_hash = None  # a new run: no longer completed
        self._set(states.STARTING, reason)
        await asyncio.sleep(0)  # event subscribers send the transition before the fork
        self.recent_stderr.clear()
        self.log_ready = False
        self._user_start = user
        env = self.host.environment(self.spec)
        try:
            proc = adopted or await self.context.start(self.spec, env, self.run + 1)
        except Exception as exc:
            self.desired = states.DESIRED_STOPPED
            self._exited(ExitInfo(None), f"could not start: {exc}", None)
            self._set(states.FAILED, f"could not start: {exc}")
            raise
        self.run += 1
        self.proc = proc
        self.started_at = proc.started_at or self.clock.time()
        self.host.spawned(self, proc)
        self._monitor = asyncio.create_task(self._watch(proc, self.run))
        self.health = self._prober(self.spec.healthcheck, self.health, liveness=False)
        self.liveness = self._prober(self.spec.liveness, self.liveness, liveness=True)
        for prober in (self.health, self.liveness):
            if prober is not None:
                prober.begin()
        # Known good as soon as the health check passes, else when the grace period ends.
        await self.wait_until(
            lambda rt: (
                rt.status != states.STARTING
                or (rt.health is not None and rt.health.status == "healthy")
            ),
            states.START_GRACE,
        )
        if self.status != states.STARTING:
            return  # ended during the grace period; _watch has recorded how
        self._set(states.RUNNING, "started")
        if self.health is not None and self.health.status in states.HEALTH_TO_STATUS:
            # The prober may have decided during the start grace period.
            target = states.HEALTH_TO_STATUS[self.health.status]
            self._set(target, f"health check {self.health.status} during start")
        if self.liveness is not None and self.liveness.status == states.HEALTH_UNHEALTHY:
            why = f"liveness check failed during start: {self.liveness.last_output}"
            self.liveness_changed(states.UNHEALTHY, why, restart=True)

    def _prober(
        self, check: HealthCheck | None, current: HealthProber | None, *, liveness: bool
    ) -> HealthProber | None:
        """The prober of a check for the next run: the current one while its check is the
        same (its verdicts go on being counted from it), else a new one."""
        if check is None:
            return None
        if current is not None and current.check == check:
            return current
        return HealthProber(
            check,
            self.clock,
            self._exec_probe,
            self.liveness_changed if liveness else self.health_changed,
            lambda src, dst, reason: self.host.health(self, src, dst, reason),
            liveness=liveness,
        )

    async def _outlast_previous(self) -> None:
        """Wait (bounded) until the run a dead supervisor left is gone; refuse to start
        when it would not end."""
        previous = self.previous
        assert previous is not None
        self.notify()  # status shows what we wait for
        if await previous.outlast():
            self.previous = None
            self.host.record(self, self.status, self.status, "the previous supervisor's run ended")
            return
        why = previous.why()
        self.host.record(self, self.status, self.status, why)
        raise StartFailed(
            f"{self.name}: {why}",
            suggestion=f"end pid {', '.join(map(str, previous.pids))} (it may be in "
            "uninterruptible sleep), then start it",
            data={"name": self.name, "previous_run": previous.describe()},
        )

    async def _exec_probe(self, command: str, timeout: float) -> tuple[bool, str]:
        """An exec health check, run in this process's context, cwd and environment."""
        env = self.host.environment(self.spec)
        return await self.context.exec_probe(self.spec, command, env, timeout)

    def health_changed(self, target: str, reason: str, restart: bool) -> None:
        """Called by the prober: move between running/healthy/unhealthy; maybe restart."""
        if self.status == states.STARTING:
            self.notify()  # _spawn is waiting: a passed check ends the grace period early
            return
        if self.status not in states.UP or self.status == target:
            return
        self._set(target, reason)
        check = self.spec.healthcheck
        if restart and check is not None and check.restart_on_unhealthy:
            self._timer = asyncio.create_task(self._restart_unhealthy())

    def liveness_changed(self, target: str, reason: str, restart: bool) -> None:
        """Called by the liveness prober: a run that failed it `retries` times is ended."""
        if restart and self.status in states.UP:
            self._timer = asyncio.create_task(self._end_for_liveness(reason))

    async def _end_for_liveness(self, why: str) -> None:
        """Stop the run (stop command, signal, timeout as for any stop), then let its
        restart policy decide, as after a crash; last_exit.reason says liveness."""
        async with self.lock:
            if self.status not in states.UP or self.liveness is None:
                return
            if self.liveness.status != states.HEALTH_UNHEALTHY:
                return  # it passed again meanwhile
            info = await self._halt(f"{states.LIVENESS}: {why}")
            policy = self.spec.restart
            uptime = self._uptime()
            decision = states.after_liveness(
                stable=uptime >= policy.backoff.reset_after,
                settled=(self.health is not None and self.health.was_healthy)
                or uptime >= states.SETTLED_AFTER,
                restarts=self.restarts,
                quick_crashes=self.quick_crashes,
                desired=self.desired,
                policy=policy.policy,
                max_restarts=policy.max_restarts,
                backoff=(policy.backoff.initial, policy.backoff.max),
                scheduled=self.spec.schedule is not None,
            )
            self._conclude(info, decision, states.LIVENESS)

    async def _restart_unhealthy(self) -> None:
        await self.recycle(
            "unhealthy: restart_on_unhealthy", "turning unhealthy", only=states.UNHEALTHY
        )

    async def recycle(self, reason: str, why: str, only: str | None = None) -> None:
        """Stop this run and start the next, counted as a restart (restart_on_unhealthy,
        max_memory); nothing happens unless the process is up (and, with `only`, in it)."""
        async with self.lock:
            if self.status not in states.UP or (only is not None and self.status != only):
                return
            await self._stop_locked(reason)
            self.restarts += 1
            with contextlib.suppress(AgentError):
                await self._spawn(f"restart {self.restarts} after {why}", user=False)

    async def _stop_locked(self, reason: str, kill: bool = False) -> None:
        info = await self._halt(reason, kill)
        self._exited(info, reason, self.run)
        self._set(states.STOPPED, reason)

    async def _halt(self, reason: str, kill: bool = False) -> ExitInfo:
        """End the run (stopping), its output drained; how it ended is the caller's to record.
        With kill: SIGKILL at once, no stop_command."""
        proc = self.proc
        assert proc is not None
        self._set(states.STOPPING, reason)
        await asyncio.sleep(0)  # event subscribers send it before the /proc scans of stop
        self._end_probes()
        signum: int = signal.SIGKILL
        timeout = 0.0
        if not kill:
            if self.spec.stop_command is not None:
                await self._stop_command(proc, self.spec.stop_command)
            signum, timeout = signal_number(self.spec.stop_signal), self.spec.stop_timeout
        info = await self.context.stop(proc, signum, timeout)
        if self._monitor is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._monitor), DRAIN_WAIT)
        return info

    async def _stop_command(self, proc: RunningProcess, stop: StopCommand) -> None:
        """Run stop_command where the process runs (its environment and cwd), then wait
        for the run to end, both within its timeout; whatever is left gets stop_signal
        and stop_timeout as in any stop (nothing left: no signal has any effect)."""
        bound = stop.bound(self.spec.stop_timeout)
        deadline = self.clock.monotonic() + bound
        env = self.host.environment(self.spec)
        _, output = await self.context.exec_probe(self.spec, stop.command, env, bound)
        self.host.record(self, self.status, self.status, f"stop command: {output}")
        ended = asyncio.Event()
        waiting = asyncio.ensure_future(proc.wait())
        waiting.add_done_callback(lambda _: ended.set())
        try:
            await self.clock.wait(ended, max(0.0, deadline - self.clock.monotonic()))
        finally:
            waiting.cancel()

    def _end_probes(self) -> None:
        for prober in (self.health, self.liveness):
            if prober is not None:
                prober.end()

    def _exited(self, info: ExitInfo, reason: str, run: int | None) -> None:
        """A new last_exit: how run ended (None: a start that failed), kept in the history."""
        self.last_exit = {
            "code": info.code,
            "signal": info.signal,
            "at": iso(self.clock.time()),
            "reason": reason,
        }
        self.host.exited(self, run)

    async def _pump(self, proc: RunningProcess, run: int) -> None:
        whole = WholeLines()  # the patterns below match whole lines, never a chunk
        async for item in proc.output():
            batch = (
                item
                if isinstance(item, OutputBatch)
                else OutputBatch(item.stream, [item.text], item.ts or self.clock.time())
            )
            if batch.stream == "stderr":
                self.recent_stderr.extend(batch.texts)
            watched = self._ready_line is not None and not self.log_ready
            probers = [p for p in (self.health, self.liveness) if p is not None]
            if watched or probers:
                lines = whole.take(batch)
                # both streams, as Procler 0.3 reads it: servers such as uvicorn log to stderr
                if watched:
                    self._ready(lines)
                for prober in probers:
                    for text in lines:
                        prober.on_line(text)
            self.host.output(self, run, batch)

    def _ready(self, texts: list[str]) -> None:
        ready_line = self._ready_line
        assert ready_line is not None
        if any(ready_line.search(text) for text in texts):
            self.log_ready = True
            self.host.record(self, self.status, self.status, "ready line logged")
            self.notify()

    async def _watch(self, proc: RunningProcess, run: int, launcher: bool = True) -> None:
        """Read the run's output until it ends, then apply the restart policy. With
        daemon_mode, a launcher that exits 0 hands the run over to the daemon it left."""
        pump = asyncio.create_task(self._pump(proc, run))
        info = await proc.wait()
        note = ""
        if launcher and self.spec.daemon is not None and self.status != states.STOPPING:
            if info.code == 0 and await self._follow_daemon(proc, run, pump):
                return
            note = "; daemon_mode: no daemon found by its pidfile or pattern"
        leftovers = 0
        if self.status != states.STOPPING:
            # The run is over when its main process ends: what it left behind (children,
            # a daemonized copy) would otherwise hold ports and pipes with nobody watching.
            leftovers = await self.context.reap_leftovers(proc)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(pump), DRAIN_WAIT)
        if not pump.done():
            pump.cancel()
            proc.stop_reading()  # its output outlived it: nothing keeps reading it
        self.host.reaped(self, proc)
        self._end_probes()
        if self.status == states.STOPPING:
            return  # stop() records the end
        self._ended(info, leftovers, note)

    async def _follow_daemon(
        self, launcher: RunningProcess, run: int, pump: asyncio.Task[None]
    ) -> bool:
        """Follow the daemon the launcher left as this run; False when none was found."""
        daemon = await self.context.follow_daemon(self.spec, launcher)
        if daemon is None or self.status == states.STOPPING:
            return False
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(pump), DRAIN_WAIT)
        pump.cancel()
        self.host.reaped(self, launcher)
        self.proc = daemon
        self.host.spawned(self, daemon)
        self.host.record(self, self.status, self.status, f"following daemon pid {daemon.pid}")
        self._monitor = asyncio.create_task(self._watch(daemon, run, launcher=False))
        return True

    def _uptime(self) -> float:
        return self.clock.time() - (self.started_at or self.clock.time())

    def _ended(self, info: ExitInfo, leftovers: int = 0, note: str = "") -> None:
        policy = self.spec.restart
        if info.code is None and info.signal is None:
            how = "ended (a followed daemon: its exit code is not known)"
        else:
            how = (
                f"exit code {info.code}"
                if info.code is not None
                else f"killed by signal {info.signal}"
            )
        how += note
        if leftovers and self.spec.keeps_shell:
            how += f"; killed {leftovers} process(es) still running when its shell ended"
        elif leftovers:
            how += f"; killed {leftovers} process(es) it left running (daemonized? run it in the foreground)"
        failed_start = None
        uptime = self._uptime()
        ever_healthy = self.health is not None and self.health.was_healthy
        if states.failed_start(
            self._user_start,
            self.status,
            has_check=self.health is not None,
            ever_healthy=ever_healthy,
        ):
            failed_start = (
                "during start" if self.status == states.STARTING else "before it was healthy"
            )
        decision = states.after_exit(
            how,
            info.code,
            failed_start=failed_start,
            stable=uptime >= policy.backoff.reset_after,
            settled=ever_healthy or uptime >= states.SETTLED_AFTER,
            restarts=self.restarts,
            quick_crashes=self.quick_crashes,
            desired=self.desired,
            policy=policy.policy,
            max_restarts=policy.max_restarts,
            # a launcher that left no daemon failed, whatever its exit code
            success_codes=() if note else self.spec.success_exit_codes,
            backoff=(policy.backoff.initial, policy.backoff.max),
            scheduled=self.spec.schedule is not None,
        )
        self._conclude(info, decision)

    def _conclude(
        self, info: ExitInfo, decision: states.AfterExit, exit_reason: str | None = None
    ) -> None:
        """Apply what procler.states decided about a run that ended: the transition says
        the decision's reason, last_exit `exit_reason` (the same unless given)."""
        self.restarts, self.quick_crashes = decision.restarts, decision.quick_crashes
        if decision.delay is None and decision.status != states.SCHEDULED:
            self.desired = states.DESIRED_STOPPED
        self._exited(info, exit_reason or decision.reason, self.run)
        if decision.status == states.EXITED:
            self.completed_spec, self.completed_hash = self.spec, spec_hash(self.spec)
        self._set(decision.status, decision.reason)
        if decision.delay is not None:
            self._timer = asyncio.create_task(self._restart_after(decision.delay))

    async def _restart_after(self, delay: float) -> None:
        await self.clock.sleep(delay)
        async with self.lock:
            if self.status == states.BACKOFF:
                self._timer = None
                with contextlib.suppress(AgentError):  # _spawn recorded the failure
                    await self._spawn(f"restart {self.restarts} after backoff", user=False)

    def _cancel_timer(self) -> None:
        if self._timer is not None and not self._timer.done():
            self._timer.cancel()
        self._timer = None

    async def shutdown(self) -> None:
        """Stop for supervisor exit, keeping the desired state for the next supervisor."""
        desired = self.desired
        await self.stop("supervisor shutting down")
        self.desired = desired
        self.host.record(
            self, self.status, self.status, f"desired {desired} kept for the next supervisor"
        )
