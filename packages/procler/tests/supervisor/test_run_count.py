"""The run count on disk moves at the fork: `procler logs` reads it from state.db to tell
a process's current run from its previous one, and a start can take long to settle."""

from __future__ import annotations

import asyncio
from pathlib import Path

from procler_testkit.harness import PY
from procler_testkit.in_process import Commands, project
from procler_testkit.in_process import supervise_booted as supervise

from procler import states
from procler.cli.logs import _known_runs
from procler.supervisor.clock import Clock
from procler.supervisor.core import Supervisor

LONG = f'[{PY}, -c, "import time; time.sleep(600)"]'


def test_a_restart_still_starting_counts_as_the_current_run(tmp_path: Path) -> None:
    root = project(tmp_path, f"  api:\n    args: {LONG}\n")
    state = str(root / ".procler" / "state")

    async def scenario(sup: Supervisor, _: Commands) -> None:
        rt = sup.runtimes["api"]
        await rt.start()
        await asyncio.sleep(0)  # the state rows are written at the next turn
        assert (rt.status, _known_runs(state)[0]) == (states.RUNNING, {"api": 1})
        restarting = asyncio.ensure_future(rt.restart())
        for _turn in range(100_000):  # bounded: the fork is a few loop turns away
            if rt.run == 2:
                break
            await asyncio.sleep(0)
        await asyncio.sleep(0)
        # still in its start grace period, which only a clock tick ends
        assert (rt.status, _known_runs(state)[0]) == (states.STARTING, {"api": 2})
        await restarting
        await asyncio.sleep(0)
        assert (rt.status, _known_runs(state)[0]) == (states.RUNNING, {"api": 2})

    supervise(root, Clock(), scenario)
