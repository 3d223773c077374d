"""The state machine and restart policy, driven through fakes: no process, no sleeping."""

from __future__ import annotations

import asyncio

import pytest
from procler_testkit.fakes import FakeClock, FakeContext, FakeHost

from procler import states
from procler.config.model import Backoff, ProcessSpec, RestartPolicy, RestartPolicyName
from procler.contexts.base import ExitInfo
from procler.supervisor.runtime import ProcessRuntime


def make(
    plan: list[ExitInfo | None] | None = None,
    policy: RestartPolicyName = "on-failure",
    max_restarts: int = 3,
    ignore_term: bool = False,
) -> tuple[ProcessRuntime, FakeContext, FakeHost, FakeClock]:
    spec = ProcessSpec(
        name="api",
        command="serve",
        restart=RestartPolicy(
            policy, max_restarts, Backoff(initial=1.0, max=4.0, reset_after=60.0)
        ),
    )
    ctx, host, clock = FakeContext(plan, ignore_term), FakeHost(), FakeClock()
    return ProcessRuntime(spec, ctx, host, clock), ctx, host, clock


async def reaches(rt: ProcessRuntime, status: str, run: int | None = None) -> None:
    """Wait (in fake time, bounded) until rt's status is `status` (in run `run`)."""

    def there(r: ProcessRuntime) -> bool:
        return r.status == status and run in (None, r.run)

    assert await rt.wait_until(there, 600.0), (rt.status, rt.run)


def test_start_then_repeat_is_idempotent() -> None:
    async def scenario() -> None:
        rt, ctx, host, _ = make()
        assert await rt.start() == {"already_running": False}
        assert rt.status == states.RUNNING
        assert await rt.start() == {"already_running": True}
        assert len(ctx.started) == 1
        assert rt.run == 1
        assert [e[1:3] for e in host.events] == [("stopped", "starting"), ("starting", "running")]

    asyncio.run(scenario())


def test_stop_and_stop_again() -> None:
    async def scenario() -> None:
        rt, ctx, _, _ = make()
        await rt.start()
        assert await rt.stop() == {"already_stopped": False}
        assert rt.status == states.STOPPED
        assert rt.last_exit is not None and rt.last_exit["signal"] == 15
        assert rt.last_exit["reason"] == "stop requested"
        assert await rt.stop() == {"already_stopped": True}
        assert ctx.signals == [(100, 15)]

    asyncio.run(scenario())


def test_stop_escalates_to_kill_when_term_is_ignored() -> None:
    async def scenario() -> None:
        rt, ctx, _, _ = make(ignore_term=True)
        await rt.start()
        await rt.stop()
        assert ctx.signals == [(100, 15), (100, 9)]
        assert rt.last_exit is not None and rt.last_exit["signal"] == 9

    asyncio.run(scenario())


def test_failure_during_start_is_failed_with_stderr_and_no_restart() -> None:
    async def scenario() -> None:
        rt, ctx, _, _ = make(plan=[ExitInfo(127)])
        await rt.start()
        assert rt.status == states.FAILED
        assert rt.last_exit is not None
        assert rt.last_exit["code"] == 127
        assert rt.last_exit["reason"] == "exit code 127 during start"
        assert list(rt.recent_stderr) == ["boom from 100"]
        assert len(ctx.started) == 1
        assert rt.desired == "stopped"

    asyncio.run(scenario())


def test_crash_loop_backs_off_then_fails_with_exact_counts() -> None:
    async def scenario() -> None:
        rt, ctx, host, clock = make(plan=[None, ExitInfo(1), ExitInfo(1), ExitInfo(1)])
        await rt.start()
        assert rt.status == states.RUNNING
        ctx.started[0].end(ExitInfo(1))
        await reaches(rt, states.FAILED)
        assert rt.status == states.FAILED
        assert rt.restarts == 3
        assert rt.run == 4
        assert clock.sleeps == [1.0, 2.0, 4.0]
        assert rt.last_exit is not None
        assert rt.last_exit["reason"] == "exit code 1; restart limit reached (3)"
        backoffs = [e[3] for e in host.events if e[2] == "backoff"]
        assert backoffs == [
            "exit code 1; restart 1/3 in 1s",
            "exit code 1; restart 2/3 in 2s",
            "exit code 1; restart 3/3 in 4s",
        ]

    asyncio.run(scenario())


def test_success_exit_is_exited_and_not_restarted_on_failure_policy() -> None:
    async def scenario() -> None:
        rt, ctx, _, _ = make()
        await rt.start()
        ctx.started[0].end(ExitInfo(0))
        await reaches(rt, states.EXITED)
        assert rt.status == states.EXITED
        assert rt.restarts == 0

    asyncio.run(scenario())


def test_always_policy_restarts_a_clean_exit() -> None:
    async def scenario() -> None:
        rt, ctx, _, _ = make(policy="always")
        await rt.start()
        ctx.started[0].end(ExitInfo(0))
        await reaches(rt, states.RUNNING, run=2)
        assert rt.status == states.RUNNING
        assert rt.run == 2
        assert rt.restarts == 1

    asyncio.run(scenario())


def test_stable_uptime_resets_the_restart_budget() -> None:
    async def scenario() -> None:
        rt, ctx, _, clock = make(policy="always")
        await rt.start()
        ctx.started[0].end(ExitInfo(1))
        await reaches(rt, states.RUNNING, run=2)
        assert rt.restarts == 1
        clock.now += 120  # longer than reset_after
        ctx.started[1].end(ExitInfo(1))
        await reaches(rt, states.RUNNING, run=3)
        assert rt.restarts == 1
        assert clock.sleeps[-1] == 0.0  # it had settled: restarted at once

    asyncio.run(scenario())


def test_a_crash_after_the_run_settled_restarts_at_once_and_quick_ones_back_off() -> None:
    async def scenario() -> None:
        rt, ctx, host, clock = make(policy="always", max_restarts=10)
        await rt.start()
        # up for SETTLED_AFTER (10 s): a crash then is no crash loop
        clock.now += states.SETTLED_AFTER
        ctx.started[0].end(ExitInfo(None, 9))
        await reaches(rt, states.RUNNING, run=2)
        # then crashes in quick succession: the backoff grows from its initial delay
        ctx.started[1].end(ExitInfo(1))
        await reaches(rt, states.RUNNING, run=3)
        ctx.started[2].end(ExitInfo(1))
        await reaches(rt, states.RUNNING, run=4)
        # settled again: at once, and the next quick crash starts from the initial delay
        clock.now += 30
        ctx.started[3].end(ExitInfo(None, 9))
        await reaches(rt, states.RUNNING, run=5)
        ctx.started[4].end(ExitInfo(1))
        await reaches(rt, states.RUNNING, run=6)
        assert clock.sleeps == [0.0, 1.0, 2.0, 0.0, 1.0]
        assert [e[3] for e in host.events if e[2] == "backoff"] == [
            "killed by signal 9; restart 1/10 at once",
            "exit code 1; restart 2/10 in 1s",
            "exit code 1; restart 3/10 in 2s",
            "killed by signal 9; restart 4/10 at once",
            "exit code 1; restart 5/10 in 1s",
        ]

    asyncio.run(scenario())


def test_stop_during_backoff_cancels_the_restart(monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario() -> None:
        rt, ctx, _, clock = make()
        await rt.start()
        rt.clock = clock

        async def slow_sleep(seconds: float) -> None:
            await asyncio.sleep(3600)

        monkeypatch.setattr(clock, "sleep", slow_sleep)
        ctx.started[0].end(ExitInfo(2))
        await reaches(rt, states.BACKOFF)
        assert rt.status == states.BACKOFF
        assert await rt.stop() == {"already_stopped": False}
        assert rt.status == states.STOPPED
        assert len(ctx.started) == 1
        monkeypatch.undo()

    asyncio.run(scenario())


def test_restart_is_always_a_new_run() -> None:
    async def scenario() -> None:
        rt, ctx, _, _ = make()
        await rt.start()
        await rt.restart()
        assert rt.run == 2
        assert rt.status == states.RUNNING
        assert ctx.signals == [(100, 15)]

    asyncio.run(scenario())


def test_invalid_transition_is_refused() -> None:
    with pytest.raises(states.InvalidTransition, match="stopped -> running"):
        states.check(states.STOPPED, states.RUNNING)


def test_the_fake_clock_lets_work_finish_however_many_loop_turns_it_takes() -> None:
    async def scenario() -> None:
        clock, done = FakeClock(), asyncio.Event()

        async def work() -> None:
            for _ in range(500):
                await asyncio.sleep(0)
            done.set()

        worker = asyncio.create_task(work())
        assert await clock.wait(done, 5.0) is True
        assert clock.now == 1_000_000.0  # no time passed while work could run
        assert await clock.wait(asyncio.Event(), 5.0) is False
        assert clock.now == 1_000_005.0
        await worker

    asyncio.run(scenario())
