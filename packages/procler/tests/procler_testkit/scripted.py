"""A FakeContext whose one-off commands (`exec`, snippets, a recipe's exec and snippet
steps) end as the test scripted them, by their command line: what they print and their
exit code, or running until stopped. Processes start as FakeContext starts them (a run of
one with `stdin: true` keeps what is sent to it); the names of what started and the
command lines run are recorded, in order."""

from __future__ import annotations

from collections.abc import Awaitable, Mapping
from dataclasses import dataclass
from typing import Any

from agentcli.errors import AgentError
from procler.config.model import ProcessSpec
from procler.contexts.base import ExitInfo, OutputLine, RunningProcess
from procler_testkit.fakes import FakeContext, FakeProcess

ONE_OFF = "exec"  # the spec name Operations.run_command gives a one-off command


@dataclass(frozen=True)
class Ran:
    """How a scripted command ends: its lines on each stream and its exit code, or (hangs)
    not before it is stopped or the test ends it."""

    stdout: tuple[str, ...] = ()
    exit_code: int = 0
    stderr: tuple[str, ...] = ()
    hangs: bool = False


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
    repeats). runs: a process's own plan, its runs' exits in order (None: runs until
    stopped; FakeContext's shared plan is for the processes not named here)."""

    def __init__(
        self,
        script: Mapping[str, Ran | list[Ran]] | None = None,
        plan: list[ExitInfo | None] | None = None,
        runs: Mapping[str, list[ExitInfo | None]] | None = None,
    ) -> None:
        super().__init__(plan)
        self.runs = {name: list(exits) for name, exits in (runs or {}).items()}
        self.script = {
            command: [ran] if isinstance(ran, Ran) else list(ran)
            for command, ran in (script or {}).items()
        }
        self.commands: list[str] = []  # the one-off command lines run, in order
        self.specs: list[tuple[ProcessSpec, dict[str, str]]] = []  # theirs, with the env
        self.names: list[str] = []  # the processes started, in order
        self.one_offs: list[FakeProcess] = []

    async def start(self, spec: ProcessSpec, env: Mapping[str, str], run: int) -> RunningProcess:
        if spec.name != ONE_OFF:
            self.names.append(spec.name)
            own = self.runs.get(spec.name)
            if not own and not spec.stdin:
                return await super().start(spec, env, run)
            end = own.pop(0) if own else self.plan.pop(0) if self.plan else None
            made = StdinProcess if spec.stdin else FakeProcess
            proc = made(100 + len(self.started), end)
            self.started.append(proc)
            return proc
        command = spec.command or ""
        if command not in self.script:
            raise KeyError(f"no script for the command {command!r}")
        endings = self.script[command]
        ran = endings.pop(0) if len(endings) > 1 else endings[0]
        self.commands.append(command)
        self.specs.append((spec, dict(env)))
        end = None if ran.hangs else ExitInfo(ran.exit_code)
        proc = FakeProcess(900 + len(self.one_offs), end)
        proc.lines = [OutputLine("stdout", text) for text in ran.stdout] + [
            OutputLine("stderr", text) for text in ran.stderr
        ]
        self.one_offs.append(proc)
        return proc


async def refusal(call: Awaitable[Any]) -> AgentError:
    """The typed error the call raised (the test fails if it answered)."""
    try:
        answer = await call
    except AgentError as exc:
        return exc
    raise AssertionError(f"answered, not refused: {answer!r}")
