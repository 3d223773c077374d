"""A FakeContext scripted by name, for stacks and one-off commands, so that a test of several
processes reads by name rather than by start order:

- a process's runs: each exits now, exits after some fake seconds, or runs until stopped;
  what each of its runs prints on stderr; what its exec probes answer;
- a one-off command (`exec`, snippets, a recipe's exec and snippet steps), by its command
  line: what it prints and its exit code, or running until stopped.

A run of a process with `stdin: true` keeps what is sent to it. What started (with its run,
env and fake start time) and the command lines run are recorded, in order."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from agentcli.errors import AgentError
from procler.config.model import ProcessSpec
from procler.contexts.base import ExitInfo, OutputLine, RunningProcess
from procler.supervisor.clock import Clock
from procler_testkit.fakes import FakeContext, FakeProcess

ONE_OFF = "exec"  # the spec name Operations.run_command gives a one-off command


@dataclass(frozen=True)
class ExitsAfter:
    """A run that ends this way once `seconds` of (fake) time have passed since its start."""

    seconds: float
    info: ExitInfo


Run = ExitInfo | ExitsAfter | None  # None: runs until stopped
# An exec probe's answer from the process's name, the probe's command and its environment.
Probe = Callable[[str, str, Mapping[str, str]], bool]


@dataclass(frozen=True)
class Ran:
    """How a scripted command ends: its lines on each stream and its exit code, or (hangs)
    not before it is stopped or the test ends it."""

    stdout: tuple[str, ...] = ()
    exit_code: int = 0
    stderr: tuple[str, ...] = ()
    hangs: bool = False


@dataclass(frozen=True)
class Started:
    """One start the context was asked for: which process, which run, with what env, when
    (the clock's monotonic time; 0 without a clock)."""

    name: str
    run: int
    env: dict[str, str]
    at: float
    proc: FakeProcess


class StdinProcess(FakeProcess):
    """A run of a process with `stdin: true`: what is sent to it is kept, whole."""

    def __init__(self, pid: int, exit_now: ExitInfo | None) -> None:
        super().__init__(pid, exit_now)
        self.sent: list[bytes] = []

    async def send(self, data: bytes, timeout: float) -> int:
        self.sent.append(data)
        return len(data)


class ScriptedContext(FakeContext):
    """script: each command line's ending, or its endings run after run (the last one
    repeats). runs[name]: the next runs of that process (FakeContext's shared `plan` is for
    the processes not named there). stderr[name]: what each of its runs prints. probe:
    answers each exec probe (without one, FakeContext's probe_results, else passing).
    A clock is needed for ExitsAfter and start times."""

    def __init__(
        self,
        script: Mapping[str, Ran | list[Ran]] | None = None,
        *,
        clock: Clock | None = None,
        plan: list[ExitInfo | None] | None = None,
        runs: Mapping[str, list[Run]] | None = None,
        stderr: Mapping[str, list[str]] | None = None,
        probe: Probe | None = None,
    ) -> None:
        super().__init__(plan)
        self.clock = clock
        self.runs = {name: list(plan) for name, plan in (runs or {}).items()}
        self.stderr = dict(stderr or {})
        self.probe = probe
        self.script = {
            command: [ran] if isinstance(ran, Ran) else list(ran)
            for command, ran in (script or {}).items()
        }
        self.names: list[str] = []  # the processes started, in order
        self.starts: list[Started] = []  # and how
        self.commands: list[str] = []  # the one-off command lines run, in order
        self.specs: list[tuple[ProcessSpec, dict[str, str]]] = []  # theirs, with the env
        self.one_offs: list[FakeProcess] = []
        self._timers: set[asyncio.Task[None]] = set()

    async def start(self, spec: ProcessSpec, env: Mapping[str, str], run: int) -> RunningProcess:
        if spec.name == ONE_OFF:
            return self._one_off(spec, env)
        own = self.runs.get(spec.name)
        step = own.pop(0) if own else self.plan.pop(0) if self.plan else None
        made = StdinProcess if spec.stdin else FakeProcess
        proc = made(100 + len(self.started), step if isinstance(step, ExitInfo) else None)
        proc.lines = [OutputLine("stderr", text) for text in self.stderr.get(spec.name, [])]
        self.started.append(proc)
        self.names.append(spec.name)
        at = self.clock.monotonic() if self.clock is not None else 0.0
        self.starts.append(Started(spec.name, run, dict(env), at, proc))
        if isinstance(step, ExitsAfter):
            timer = asyncio.ensure_future(self._end_later(proc, step))
            self._timers.add(timer)
            timer.add_done_callback(self._timers.discard)
        return proc

    def _one_off(self, spec: ProcessSpec, env: Mapping[str, str]) -> FakeProcess:
        command = spec.command or ""
        if command not in self.script:
            raise KeyError(f"no script for the command {command!r}")
        endings = self.script[command]
        ran = endings.pop(0) if len(endings) > 1 else endings[0]
        self.commands.append(command)
        self.specs.append((spec, dict(env)))
        proc = FakeProcess(900 + len(self.one_offs), None if ran.hangs else ExitInfo(ran.exit_code))
        proc.lines = [OutputLine("stdout", text) for text in ran.stdout] + [
            OutputLine("stderr", text) for text in ran.stderr
        ]
        self.one_offs.append(proc)
        return proc

    async def _end_later(self, proc: FakeProcess, step: ExitsAfter) -> None:
        assert self.clock is not None, "ExitsAfter needs the context's clock"
        await self.clock.sleep(step.seconds)
        proc.end(step.info)

    async def exec_probe(
        self, spec: ProcessSpec, command: str, env: Mapping[str, str], timeout: float
    ) -> tuple[bool, str]:
        if self.probe is None:
            return await super().exec_probe(spec, command, env, timeout)
        self.probes.append(command)
        ok = self.probe(spec.name, command, env)
        return ok, "exit 0: ok" if ok else "exit 1: down"

    def ready_after(self, seconds: Mapping[str, float]) -> None:
        """Each process's exec probes pass once its latest run has been up seconds[name]
        (fake time): a server that listens some time after it starts."""
        clock = self.clock
        assert clock is not None, "ready_after needs the context's clock"

        def probe(name: str, command: str, env: Mapping[str, str]) -> bool:
            return clock.monotonic() - self.last(name).at >= seconds[name]

        self.probe = probe

    def last(self, name: str) -> Started:
        """The latest start of the process name."""
        return [start for start in self.starts if start.name == name][-1]


async def refusal(call: Awaitable[Any]) -> AgentError:
    """The typed error the call raised (the test fails if it answered)."""
    try:
        answer = await call
    except AgentError as exc:
        return exc
    raise AssertionError(f"answered, not refused: {answer!r}")
