"""Waiting on the exit of processes of a stopping run through their pidfds."""

from __future__ import annotations

import asyncio
import subprocess
import sys

from procler.contexts.local import exits


def test_exits_returns_once_every_process_has_ended() -> None:
    quick = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(0.2)"])
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait(10)  # reaped: its pid names nobody any more
    asyncio.run(exits([quick.pid, gone.pid], 30.0))
    assert quick.poll() == 0


def test_exits_is_bounded_by_its_timeout() -> None:
    stays = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        asyncio.run(exits([stays.pid], 0.05))
        assert stays.poll() is None
    finally:
        stays.kill()
        stays.wait(10)


def test_exits_yields_to_the_loop_even_when_every_process_is_gone() -> None:
    """The caller looks at /proc again after it; a look cached for the loop's turn must
    not be taken for a fresh one (a stop would spin without ever yielding)."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait(10)

    async def turns() -> list[str]:
        seen: list[str] = []
        asyncio.get_running_loop().call_soon(seen.append, "next turn")
        await exits([gone.pid], 30.0)
        return seen

    assert asyncio.run(turns()) == ["next turn"]
