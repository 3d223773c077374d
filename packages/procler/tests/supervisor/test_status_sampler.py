"""Status's /proc samples (procler.supervisor.sampler): read again after SAMPLE_EVERY, and at
once on a transition or a new run, never a stale `running` or a dead run's pid."""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from procler_testkit.fakes import FakeProcess
from procler_testkit.harness import PY, Project
from procler_testkit.in_process import BOUND, SLEEP, Commands, NoSentinel

from procler.contexts import procfs
from procler.supervisor.clock import Clock
from procler.supervisor.core import Supervisor
from procler.supervisor.sampler import SAMPLE_EVERY, ProcessSampler, Sample, lifetime

T0 = 1_000_000.0
GROW = 64 << 20  # bytes the child touches when told to
CHILD = (
    "import sys\n"
    "print('ready', flush=True)\n"
    "sys.stdin.readline()\n"
    f"kept = b'x' * {GROW}\n"
    "print('grown', flush=True)\n"
    "sys.stdin.readline()\n"
)


@pytest.fixture
def child() -> Iterator[subprocess.Popen[str]]:
    """A process blocked on its stdin (so its /proc figures hold still) that grows by GROW
    bytes when it reads a line."""
    with subprocess.Popen(
        [PY, "-c", CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as proc:
        try:
            assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
            yield proc
        finally:
            proc.kill()
            proc.wait(timeout=10)


def now_in_proc(pid: int) -> tuple[int, float]:
    """(resident bytes, CPU seconds) of pid's tree, read now."""
    tree = procfs.tree(pid)
    return sum(p.rss_bytes for p in tree), sum(p.cpu_seconds for p in tree)


def test_a_sample_serves_at_most_a_second_then_is_read_again(child: subprocess.Popen[str]) -> None:
    async def scenario() -> None:
        sampler, run = ProcessSampler(), FakeProcess(child.pid, None)

        def sample(at: float) -> Sample:
            return sampler.sample("api", run, child.pid, "running", False, at, T0 - 10.0)

        first = sample(T0)
        rss, cpu = now_in_proc(child.pid)
        assert (first.pid, first.rss_bytes, first.cpu_seconds) == (child.pid, rss, cpu)
        # its state is not asserted: the child may still be running toward its readline
        assert first.details == {"linux_state": None}  # what the run's context gives
        assert first.cpu_percent == round(100.0 * cpu / 10.0, 1)  # since its start
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write("grow\n")
        child.stdin.flush()
        assert child.stdout.readline() == "grown\n"
        assert sample(T0 + SAMPLE_EVERY / 4) is first  # /proc is not read
        fresh = sample(T0 + SAMPLE_EVERY)
        rss, cpu = now_in_proc(child.pid)
        assert (fresh.at, fresh.rss_bytes, fresh.cpu_seconds) == (T0 + SAMPLE_EVERY, rss, cpu)
        assert fresh.rss_bytes is not None and first.rss_bytes is not None
        # the allocator may hand back a few pages it held before: most of GROW, not all
        assert fresh.rss_bytes - first.rss_bytes >= GROW * 3 // 4
        # CPU percent over the time between the two samples
        expected = round(100.0 * (cpu - first.cpu_seconds) / SAMPLE_EVERY, 1)
        assert fresh.cpu_percent == expected
        # a clock set back does not keep a sample forever
        assert sample(T0).at == T0

    asyncio.run(scenario())


def test_samples_of_different_processes_serve_different_times() -> None:
    lives = {name: lifetime(name) for name in ("api", "worker", "db", "web-1", "web-2")}
    assert all(SAMPLE_EVERY / 2 <= life < SAMPLE_EVERY for life in lives.values())
    assert len(set(lives.values())) == len(lives)
    assert lifetime("api") == lives["api"]


def test_a_transition_or_a_new_run_takes_a_new_sample(child: subprocess.Popen[str]) -> None:
    async def scenario() -> None:
        sampler, run = ProcessSampler(), FakeProcess(child.pid, None)
        first = sampler.sample("api", run, child.pid, "running", False, T0, T0 - 10.0)
        moved = sampler.sample("api", run, child.pid, "stopping", False, T0 + 0.1, T0 - 10.0)
        assert (moved is first, moved.status, moved.at) == (False, "stopping", T0 + 0.1)
        # a new run of the same pid (the same process adopted again): CPU since its start
        again = FakeProcess(child.pid, None)
        renewed = sampler.sample("api", again, child.pid, "stopping", False, T0 + 0.2, T0)
        _, cpu = now_in_proc(child.pid)
        assert (renewed.proc is again, renewed.cpu_percent) == (True, round(100 * cpu / 0.2, 1))

    asyncio.run(scenario())


def test_a_shell_without_its_child_yet_is_looked_at_again(
    child: subprocess.Popen[str],
) -> None:
    async def scenario() -> None:
        sampler, run = ProcessSampler(), FakeProcess(child.pid, None)
        first = sampler.sample("api", run, child.pid, "running", True, T0, T0)
        again = sampler.sample("api", run, child.pid, "running", True, T0, T0)
        assert (first.pid, again.pid, again is first) == (child.pid, child.pid, False)

    asyncio.run(scenario())


class StillClock(Clock):
    """Wall time that never moves (waits and sleeps are real): a sample never ages, so
    only a transition or a new run can make status read /proc again."""

    def time(self) -> float:
        return T0


def test_status_after_stop_and_restart_shows_the_new_state_at_once(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    Project(root, f"version: 1\nprocesses:\n  api:\n    args: {SLEEP}\n")
    (root / ".procler" / "state").mkdir()

    async def scenario(handlers: Commands) -> None:
        started = await handlers.start({"name": "api"})
        first = await handlers.status({"name": "api"})
        assert (first["status"], first["pid"], first["run"]) == ("running", started["pid"], 1)
        assert first["linux_state"] is not None and first["memory_rss_bytes"] is not None
        await handlers.stop({"name": "api"})
        stopped = await handlers.status({"name": "api"})
        assert (stopped["status"], stopped["pid"], stopped["memory_rss_bytes"]) == (
            "stopped",
            None,
            None,
        )
        assert (stopped["cpu_percent"], stopped["linux_state"]) == (None, None)
        await handlers.start({"name": "api"})
        back = await handlers.status({"name": "api"})
        rt = handlers.sup.runtimes["api"]
        assert rt.proc is not None and rt.proc.pid != first["pid"]
        assert (back["status"], back["pid"], back["run"]) == ("running", rt.proc.pid, 2)
        restarted = await handlers.restart({"name": "api"})
        latest = await handlers.status({"name": "api"})
        assert restarted["pid"] != back["pid"]
        assert (latest["status"], latest["pid"], latest["run"]) == (
            "running",
            restarted["pid"],
            3,
        )

    async def main() -> None:
        config = str(root / ".procler" / "config.yaml")
        sup = Supervisor(str(root), config, clock=StillClock(), sentinel=NoSentinel())
        try:
            await asyncio.wait_for(scenario(Commands(sup)), BOUND)
        finally:
            await sup.close()

    asyncio.run(main())
