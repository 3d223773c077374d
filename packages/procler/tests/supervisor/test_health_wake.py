"""When a health check probes during a start: at each tick, and for tcp and http also as
soon as the process prints (fake time: no waiting; a real loopback socket)."""

from __future__ import annotations

import asyncio
import socket

from procler_testkit.fakes import FakeClock

from procler import states
from procler.config.model import HealthCheck, TcpProbe
from procler.supervisor.health import HealthProber

START = 1_000_000.0  # FakeClock's first time


async def _no_exec(command: str, timeout: float) -> tuple[bool, str]:
    raise AssertionError("a tcp check runs no command")


async def _turns_until(done: HealthProber) -> None:
    """Let the loop run (fake time stands still meanwhile) until the prober is healthy."""
    for _ in range(1000):
        if done.status == states.HEALTH_HEALTHY:
            return
        await asyncio.sleep(0)
    raise AssertionError(f"still {done.status} after {done.checks} checks")


def test_a_printed_line_wakes_a_tcp_probe_before_its_next_tick() -> None:
    async def scenario() -> None:
        clock = FakeClock()
        changes: list[tuple[str, str, bool]] = []
        with socket.socket() as server:
            server.bind(("127.0.0.1", 0))  # bound, not listening yet: refused
            port = server.getsockname()[1]
            check = HealthCheck(kind="tcp", tcp=TcpProbe(port=port), start_period=30.0)
            prober = HealthProber(check, clock, _no_exec, lambda *change: changes.append(change))
            prober.begin()
            await clock.sleep(0.0075)  # the probes at 0 and at the 5 ms tick: refused
            assert (prober.checks, prober.last_check_at) == (2, START + 0.005)
            server.listen()
            prober.on_line(f"listening on {port}")
            await _turns_until(prober)
            prober.end()
        assert (prober.checks, prober.last_check_at) == (3, START + 0.0075)
        assert changes == [
            (states.HEALTHY, f"health check passed: tcp 127.0.0.1:{port}: connected", False)
        ]

    asyncio.run(scenario())
