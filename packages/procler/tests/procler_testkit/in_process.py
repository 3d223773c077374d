"""A supervisor in the test's event loop: its commands called as its socket would call
them (Commands), its Operations called directly, over real processes or over the fakes of
the OS seam (FakeContext, FakeClock), with the sentinel link stubbed (NoSentinel).

No supervisor or sentinel process is spawned; `supervise*` run a scenario bounded by
BOUND and close the supervisor after it, whatever happened.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Generic, overload

from typing_extensions import TypeVar

from procler.supervisor.clock import Clock
from procler.supervisor.commands import Handler, bound
from procler.supervisor.core import Supervisor
from procler.supervisor.operations import Operations, Row
from procler.supervisor.runtime import ProcessRuntime
from procler_testkit.fakes import FakeClock, FakeContext
from procler_testkit.harness import PY, Project

BOUND = 60.0  # seconds a scenario may take (in fake time: far more than any test waits)
NEVER = 3600.0  # a wait that ran its timeout would fail the test's own bound first
SLEEP = f'[{PY}, -c, "import time; time.sleep(600)"]'
# The context a Faked supervisor runs its processes in: `Faked` alone is over a plain
# FakeContext; `Faked[ScriptedContext]` gives a test the scripted context's records.
# (Covariant: Faked only reads it, so a scenario written for any FakeContext takes one over
# a ScriptedContext.)
Context = TypeVar("Context", bound=FakeContext, default=FakeContext, covariant=True)
Given = TypeVar("Given", bound=FakeContext)  # the context a test gives faked()


class NoSentinel:
    """Stands in for the sentinel process; the supervisor's close() stops what runs."""

    pid = None

    def __init__(self) -> None:
        self.lines: list[str] = []

    def tell(self, line: str) -> None:
        self.lines.append(line)

    async def close(self) -> None:
        pass


class Commands:
    """The supervisor's commands by name, as its socket calls them (without the answer's
    config_warning): `cmds.start({"name": "api"})`, `cmds.schedule_run_now(...)`."""

    def __init__(self, sup: Supervisor) -> None:
        self.sup = sup
        self.ops = Operations(sup)
        self._table = bound(self.ops, None)
        self._by_attribute = {
            n.replace(" ", "_").replace("-", "_"): fn for n, fn in self._table.items()
        }

    def __getattr__(self, name: str) -> Handler:
        """A command by its name, its words joined by `_` (schedule_run_now: `schedule
        run-now`)."""
        return self._by_attribute[name]

    def describe(self, rt: ProcessRuntime) -> Row:
        return self.ops.describe(rt.name)

    async def call(self, name: str, values: dict[str, Any]) -> Any:
        return await self._table[name](values)


def project(tmp_path: Path, processes: str) -> Path:
    """A project whose config holds these processes (YAML lines under `processes:`)."""
    root = tmp_path / "proj"
    Project(root, f"version: 1\nprocesses:\n{processes}")
    (root / ".procler" / "state").mkdir(exist_ok=True)
    return root


def supervise(
    tmp_path: Path, config: str, scenario: Callable[[Commands], Awaitable[None]]
) -> list[str]:
    """Run scenario against a supervisor of a new project; what the sentinel was told."""
    root = tmp_path / "proj"
    Project(root, config)
    (root / ".procler" / "state").mkdir()
    sentinel = NoSentinel()

    async def main() -> None:
        sup = Supervisor(str(root), str(root / ".procler" / "config.yaml"), sentinel=sentinel)
        try:
            await asyncio.wait_for(scenario(Commands(sup)), BOUND)
        finally:
            await sup.close()

    asyncio.run(main())
    return sentinel.lines


def supervise_booted(
    root: Path, clock: Clock, scenario: Callable[[Supervisor, Commands], Awaitable[None]]
) -> None:
    """Run scenario against a booted supervisor of the project at root, on this clock."""

    async def main() -> None:
        config = str(root / ".procler" / "config.yaml")
        sup = Supervisor(str(root), config, clock=clock, sentinel=NoSentinel())
        try:
            await sup.boot()
            await asyncio.wait_for(scenario(sup, Commands(sup)), BOUND)
        finally:
            await sup.close()

    asyncio.run(main())


class Faked(Generic[Context]):
    """A supervisor over the fakes: every process runs in `context` (a FakeContext: its
    processes end when the test says, its probes answer what the test planned), time is
    `clock` (a FakeClock: it moves only when every task waits on it)."""

    def __init__(self, sup: Supervisor, context: Context, clock: FakeClock) -> None:
        self.sup, self.context, self.clock = sup, context, clock
        self.ops = Operations(sup)
        self.commands = Commands(sup)

    def rt(self, name: str) -> ProcessRuntime:
        return self.sup.runtimes[name]

    def statuses(self) -> dict[str, str]:
        return {name: rt.status for name, rt in self.sup.runtimes.items()}

    async def until(self, pred: Callable[[], bool], seconds: float = 600.0) -> None:
        """Wait in fake time (bounded) until pred holds, woken by each status change."""
        deadline = self.clock.monotonic() + seconds
        while not pred():
            left = deadline - self.clock.monotonic()
            assert left > 0, self.statuses()
            rts = list(self.sup.runtimes.values())
            changes = [
                asyncio.ensure_future(rt.wait_until(status_other_than(rt.status), left))
                for rt in rts
            ]
            try:
                await asyncio.wait(changes, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for change in changes:
                    change.cancel()


def status_other_than(status: str) -> Callable[[ProcessRuntime], bool]:
    return lambda rt: rt.status != status


@overload
def faked(
    tmp_path: Path,
    config: str,
    scenario: Callable[[Faked], Awaitable[None]],
    context: None = None,
    clock: FakeClock | None = None,
) -> None: ...


@overload
def faked(
    tmp_path: Path,
    config: str,
    scenario: Callable[[Faked[Given]], Awaitable[None]],
    context: Given,
    clock: FakeClock | None = None,
) -> None: ...


def faked(
    tmp_path: Path,
    config: str,
    scenario: Callable[[Faked[Any]], Awaitable[None]],
    context: FakeContext | None = None,
    clock: FakeClock | None = None,
) -> None:
    """Run scenario against a booted supervisor of a new project whose processes all run
    in a FakeContext, on a FakeClock: no process, no real waiting. A context that keeps
    time itself (a ScriptedContext) is given the same clock. Called again with the same
    tmp_path, a new supervisor of the same project (its config as given now)."""
    root = tmp_path / "proj"
    Project(root, config)
    (root / ".procler" / "state").mkdir(exist_ok=True)  # again: the next supervisor's
    fake = context or FakeContext()

    time = clock or FakeClock()

    async def main() -> None:
        sup = Supervisor(
            str(root), str(root / ".procler" / "config.yaml"), clock=time, sentinel=NoSentinel()
        )
        sup.contexts["local"] = fake
        try:
            await sup.boot()
            await asyncio.wait_for(scenario(Faked(sup, fake, time)), BOUND)
        finally:
            await sup.close()

    asyncio.run(main())
