"""A new supervisor follows again what its predecessor's processes still run (a container,
a daemon) before it answers anything, however slow the engine is to say so: the first
answer after a restart never says `stopped` of a process that runs. (A kill -9 under a real
container is in the real tier, test_container_cli.py.)"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from procler_testkit.fakes import FakeContext, FakeProcess
from procler_testkit.in_process import Faked, faked

from procler.config.model import ProcessSpec
from procler.contexts.base import RunningProcess
from procler.supervisor import core

CONFIG = "version: 1\nprocesses:\n  web:\n    command: serve\n  worker:\n    command: work\n"


class SlowEngine(FakeContext):
    """A context whose engine takes longer than the supervisor's BOOT_WAIT to say that
    web's run is still there (worker's is not)."""

    def __init__(self) -> None:
        super().__init__()
        self.adopted: list[str] = []

    async def adopt(self, spec: ProcessSpec) -> RunningProcess | None:
        self.adopted.append(spec.name)
        await asyncio.sleep(0.05)
        return FakeProcess(4242, None) if spec.name == "web" else None


def test_the_first_answer_waits_for_what_still_runs_past_the_boot_wait(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def first(f: Faked) -> None:
        for name in ("web", "worker"):
            assert (await f.commands.start({"name": name}))["status"] == "running"

    faked(tmp_path, CONFIG, first)
    monkeypatch.setattr(core, "BOOT_WAIT", 0.0)
    engine = SlowEngine()

    async def after_restart(f: Faked) -> None:
        rows = {row["name"]: row for row in (await f.commands.status({}))["processes"]}
        assert (rows["web"]["status"], rows["web"]["pid"], rows["web"]["run"]) == (
            "running",
            4242,
            2,
        )
        await f.until(lambda: f.rt("worker").status == "running")
        assert (len(engine.started), f.rt("worker").proc) == (1, engine.started[0])
        assert (engine.adopted, f.rt("web").restarts, f.rt("worker").restarts) == (
            ["web", "worker"],  # each asked once: the restore does not ask again
            0,
            1,
        )

    faked(tmp_path, CONFIG, after_restart, engine)
