"""Where a local start forks: a lone one on the loop, a burst's others in the spawner's
threads (each waits there for its exec)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from collections.abc import Mapping

import pytest

from procler.contexts import local
from procler.contexts.local import LocalContext, LocalProcess

ARGV = [sys.executable, "-c", "pass"]


def test_a_lone_start_forks_on_the_loop_and_a_burst_in_threads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    on_loop: list[bool] = []
    popen = local._popen

    def recorded(
        argv: list[str], cwd: str, env: Mapping[str, str], run_id: str, stdin: bool = False
    ) -> subprocess.Popen[bytes]:
        on_loop.append(threading.current_thread() is threading.main_thread())
        return popen(argv, cwd, env, run_id, stdin)

    monkeypatch.setattr(local, "_popen", recorded)

    async def scenario() -> None:
        ctx = LocalContext()
        env = dict(os.environ)
        lone = await ctx.spawn_soon(ARGV, ".", env, "lone")
        burst = await asyncio.gather(
            *(ctx.spawn_soon(ARGV, ".", env, f"burst-{i}") for i in range(3))
        )
        after = await ctx.spawn_soon(ARGV, ".", env, "after")  # the burst's forks ended
        for proc in (lone, *burst, after):
            await _ended(proc)

    asyncio.run(scenario())
    assert on_loop == [True, True, False, False, True]


async def _ended(proc: LocalProcess) -> None:
    assert (await proc.wait()).code == 0
    for pipe in (proc.popen.stdout, proc.popen.stderr):
        assert pipe is not None
        pipe.close()
