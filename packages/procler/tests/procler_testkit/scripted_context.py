"""A FakeContext scripted per process name, for stacks: what each run of a process does
(runs on, exits now, or exits after some fake seconds), what it prints, and what its exec
probes answer, so a test of several processes reads by name rather than by start order."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from procler.config.model import ProcessSpec
from procler.contexts.base import ExitInfo, OutputLine, RunningProcess
from procler.supervisor.clock import Clock
from procler_testkit.fakes import FakeContext, FakeProcess


@dataclass(frozen=True)
class ExitsAfter:
    """A run that ends this way once `seconds` of (fake) time have passed since its start."""

    seconds: float
    info: ExitInfo


Run = ExitInfo | ExitsAfter | None  # None: runs until stopped
# An exec probe's answer from the process's name, the probe's command and its environment.
Probe = Callable[[str, str, Mapping[str, str]], bool]


@dataclass(frozen=True)
class Started:
    """One start the context was asked for: which process, which run, with what env."""

    name: str
    run: int
    env: dict[str, str]
    at: float
    proc: FakeProcess


class ScriptedContext(FakeContext):
    """runs[name] are the next runs of that process (a process without a plan runs until
    stopped); stderr[name] what each of its runs prints; probe answers each exec probe
    (every probe passes without one)."""

    def __init__(
        self,
        clock: Clock,
        runs: dict[str, list[Run]] | None = None,
        stderr: dict[str, list[str]] | None = None,
        probe: Probe | None = None,
    ) -> None:
        super().__init__()
        self.clock = clock
        self.runs = {name: list(plan) for name, plan in (runs or {}).items()}
        self.stderr = stderr or {}
        self.probe = probe
        self.starts: list[Started] = []
        self._timers: set[asyncio.Task[None]] = set()

    async def start(self, spec: ProcessSpec, env: Mapping[str, str], run: int) -> RunningProcess:
        plan = self.runs.get(spec.name, [])
        step = plan.pop(0) if plan else None
        proc = FakeProcess(100 + len(self.started), step if isinstance(step, ExitInfo) else None)
        proc.lines = [OutputLine("stderr", text) for text in self.stderr.get(spec.name, [])]
        self.started.append(proc)
        self.starts.append(Started(spec.name, run, dict(env), self.clock.monotonic(), proc))
        if isinstance(step, ExitsAfter):
            timer = asyncio.ensure_future(self._end_later(proc, step))
            self._timers.add(timer)
            timer.add_done_callback(self._timers.discard)
        return proc

    async def _end_later(self, proc: FakeProcess, step: ExitsAfter) -> None:
        await self.clock.sleep(step.seconds)
        proc.end(step.info)

    async def exec_probe(
        self, spec: ProcessSpec, command: str, env: Mapping[str, str], timeout: float
    ) -> tuple[bool, str]:
        self.probes.append(command)
        ok = self.probe(spec.name, command, env) if self.probe is not None else True
        return ok, "exit 0: ok" if ok else "exit 1: down"

    def ready_after(self, seconds: Mapping[str, float]) -> None:
        """Each process's exec probes pass once its latest run has been up seconds[name]
        (fake time): a server that listens some time after it starts."""

        def probe(name: str, command: str, env: Mapping[str, str]) -> bool:
            return self.clock.monotonic() - self.last(name).at >= seconds[name]

        self.probe = probe

    def names(self) -> list[str]:
        """The processes started, in the order they were."""
        return [start.name for start in self.starts]

    def last(self, name: str) -> Started:
        """The latest start of the process name."""
        return [start for start in self.starts if start.name == name][-1]
