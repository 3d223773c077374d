"""A recipe of 20 steps (start, wait_for healthy, stop, start, wait_for healthy on each of 4
local processes that become ready 100 ms after they start): total wall time of
`procler recipe run` against the sum of the readiness floors (8 x 100 ms), ratio printed.
Goal: <= 1.10x (no sleeps hidden in step transitions). It also prints the time spent in the
supervisor by step kind and between steps (the transitions themselves: a checkpoint each);
a `start` step answers after the runtime's start grace period, as `procler start` does."""

from __future__ import annotations

import shutil
import sys
import time

from procler_readiness import free_ports, project, run

PROCESSES = 4
READY_AFTER = 0.1


def main() -> None:
    ports = free_ports(PROCESSES)
    body = "version: 1\nprocesses:\n"
    steps = ""
    for i, port in enumerate(ports):
        body += (
            f"  s{i}:\n    args: [{sys.executable}, server.py, '{port}', '{READY_AFTER}']\n"
            f"    healthcheck: {{tcp: {{port: {port}}}, interval: 1s, start_period: 10s}}\n"
        )
        ready = f"      - wait_for: {{process: s{i}, condition: healthy, timeout: 10s}}\n"
        steps += f"      - start: s{i}\n{ready}      - stop: s{i}\n      - start: s{i}\n{ready}"
    body += f"recipes:\n  bench:\n    steps:\n{steps}"
    work = project(body)
    run(work, "status")  # supervisor warm
    t0 = time.perf_counter()
    answer = run(work, "recipe", "run", "bench")
    total = time.perf_counter() - t0
    floor = PROCESSES * 2 * READY_AFTER
    data = answer["data"]
    steps_run = len(data["steps"])
    inside = data["ended_at"] - data["started_at"]
    kinds: dict[str, float] = {}
    for step in data["steps"]:
        kinds[step["kind"]] = kinds.get(step["kind"], 0.0) + step["ended_at"] - step["started_at"]
    print(
        f"recipe of {steps_run} steps ({PROCESSES} processes, each ready "
        f"{READY_AFTER * 1000:.0f} ms after start, started twice): {total:.3f} s, "
        f"{total / floor:.2f}x the {floor:.1f} s readiness floor (goal <= 1.10x), "
        f"success={answer['success']}; in the supervisor {inside:.3f} s "
        f"({inside / floor:.2f}x; by kind: "
        + ", ".join(f"{k} {v:.3f} s" for k, v in kinds.items())
        + f"; between steps {inside - sum(kinds.values()):.3f} s)"
    )
    run(work, "daemon", "stop")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
