"""The liveness check apart from readiness, driven through fakes: no process, no sleeping.

`liveness:` failing `retries` times in a row ends the run, and the restart policy decides
what follows (last_exit.reason: liveness); `healthcheck:` keeps its meaning (readiness),
and `successes` asks for passes in a row before a check counts as healthy."""

from __future__ import annotations

import asyncio

from procler_testkit.fakes import FakeClock, FakeContext, FakeHost

from procler import states
from procler.config.model import (
    Backoff,
    HealthCheck,
    ProcessSpec,
    RestartPolicy,
    RestartPolicyName,
)
from procler.supervisor.runtime import ProcessRuntime


def make(
    liveness: HealthCheck | None,
    healthcheck: HealthCheck | None = None,
    policy: RestartPolicyName = "on-failure",
    probes: tuple[bool, ...] = (),
) -> tuple[ProcessRuntime, FakeContext, FakeHost, FakeClock]:
    spec = ProcessSpec(
        name="api",
        command="serve",
        restart=RestartPolicy(policy, 3, Backoff(initial=1.0, max=4.0)),
        healthcheck=healthcheck,
        liveness=liveness,
    )
    ctx, host, clock = FakeContext(), FakeHost(), FakeClock()
    ctx.probe_results = list(probes)
    return ProcessRuntime(spec, ctx, host, clock), ctx, host, clock


def alive_check(interval: float, retries: int, start_period: float = 0.0) -> HealthCheck:
    return HealthCheck(
        kind="exec", exec="alive?", interval=interval, retries=retries, start_period=start_period
    )


async def reaches(rt: ProcessRuntime, status: str, run: int | None = None) -> None:
    def there(r: ProcessRuntime) -> bool:
        return r.status == status and run in (None, r.run)

    assert await rt.wait_until(there, 600.0), (rt.status, rt.run)


def test_failing_liveness_ends_the_run_and_the_restart_policy_restarts_it() -> None:
    async def scenario() -> None:
        check = alive_check(interval=2.0, retries=3)
        rt, ctx, host, clock = make(check, probes=(True, False, False, False))
        await rt.start()
        await reaches(rt, states.RUNNING, run=2)
        assert rt.restarts == 1
        assert rt.last_exit is not None and rt.last_exit["reason"] == "liveness"
        assert rt.last_exit["signal"] == 15  # stopped the way a stop does it
        assert ctx.signals == [(100, 15)]
        assert ctx.probes == ["alive?"] * 4
        # a probe every interval from the start (no eager readiness probing; the fifth
        # sleep is the one the run's end cancels), then the backoff
        assert clock.sleeps[:6] == [2.0, 2.0, 2.0, 2.0, 2.0, 1.0]
        moves = [e[1:] for e in host.events if e[2] in ("stopping", "backoff")]
        assert moves == [
            ("running", "stopping", "liveness: liveness check failed 3 times: exit 1: down"),
            ("stopping", "backoff", "liveness; restart 1/3 in 1s"),
        ]
        assert rt.liveness is not None and rt.liveness.status == states.HEALTH_STARTING
        await rt.stop()

    asyncio.run(scenario())


def test_failing_liveness_without_a_restart_policy_leaves_the_process_failed() -> None:
    async def scenario() -> None:
        rt, ctx, host, _ = make(
            alive_check(interval=1.0, retries=2), policy="no", probes=(False,) * 2
        )
        await rt.start()
        await reaches(rt, states.FAILED)
        assert rt.desired == states.DESIRED_STOPPED
        assert rt.last_exit is not None and rt.last_exit["reason"] == "liveness"
        assert len(ctx.started) == 1
        assert host.events[-1][1:] == ("stopping", "failed", "liveness")

    asyncio.run(scenario())


def test_a_pass_between_failures_keeps_the_run() -> None:
    async def scenario() -> None:
        probes = (False, False, True, False, False, True)
        rt, ctx, _, _ = make(alive_check(interval=1.0, retries=3), probes=probes)
        await rt.start()
        await rt.wait_until(lambda r: len(ctx.probes) >= 7, 600.0)
        assert rt.status == states.RUNNING
        assert rt.run == 1
        assert rt.liveness is not None and rt.liveness.failures == 0
        await rt.stop()

    asyncio.run(scenario())


def test_start_period_delays_the_first_liveness_probe() -> None:
    async def scenario() -> None:
        rt, ctx, _, clock = make(alive_check(interval=1.0, retries=1, start_period=30.0))
        await rt.start()
        await rt.wait_until(lambda r: len(ctx.probes) >= 2, 600.0)
        assert clock.sleeps[:2] == [30.0, 1.0]
        await rt.stop()

    asyncio.run(scenario())


def test_a_log_liveness_check_is_a_heartbeat() -> None:
    """The fake run prints one line ("boom from 100") and nothing after: the first probe
    sees it, the next two see no new line and end the run."""

    async def scenario() -> None:
        check = HealthCheck(kind="log", log="boom", interval=5.0, retries=2)
        rt, _, _, clock = make(check, policy="no")
        await rt.start()
        await reaches(rt, states.FAILED)
        assert clock.sleeps == [5.0, 5.0, 5.0, 5.0]  # the fourth: cancelled by the run's end
        assert rt.last_exit is not None and rt.last_exit["reason"] == "liveness"
        assert rt.liveness is not None
        assert rt.liveness.last_output == "no matching line since the last check"

    asyncio.run(scenario())


def test_readiness_and_liveness_are_apart() -> None:
    """An unhealthy readiness check moves the status only; the liveness check keeps the run."""

    async def scenario() -> None:
        ready = HealthCheck(kind="log", log="never printed", interval=1.0, retries=1)
        rt, ctx, _, _ = make(alive_check(interval=1.0, retries=1), healthcheck=ready)
        await rt.start()
        await reaches(rt, states.UNHEALTHY)
        await rt.wait_until(lambda r: len(ctx.probes) >= 3, 600.0)
        assert rt.status == states.UNHEALTHY
        assert rt.run == 1
        assert rt.liveness is not None and rt.liveness.status == states.HEALTH_HEALTHY
        await rt.stop()

    asyncio.run(scenario())


def test_successes_asks_for_passes_in_a_row() -> None:
    async def scenario() -> None:
        ready = HealthCheck(kind="exec", exec="ready?", interval=1.0, retries=5, successes=2)
        rt, ctx, _, _ = make(None, healthcheck=ready, probes=(True, False, True, True))
        await rt.start()
        await reaches(rt, states.HEALTHY)
        assert ctx.probes == ["ready?"] * 4
        await rt.stop()

    asyncio.run(scenario())
