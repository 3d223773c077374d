"""A recipe of 20 steps (start, wait_for healthy, stop, start, wait_for healthy on each of 4
local processes that become ready 100 ms after they are forked): total wall time of
`procler recipe run` against the sum of the readiness floors (8 x 100 ms), ratio printed.
Goal: <= 1.10x (no sleeps hidden in step transitions). Run twice: readiness seen by a tcp
probe, then by the server's log line.

Where the rest goes, from the step records and the servers' own "open TS" lines: how long
after the floor each server actually listened (spawn and interpreter start under the
machine's load), how long after that its start step answered (readiness detection), the
stop steps, and the gaps between steps (the transitions: a checkpoint each)."""

from __future__ import annotations

import shutil
import sys
import time

from procler_readiness import free_ports, project, run

PROCESSES = 4
READY_AFTER = 0.1
# how readiness is seen: a tcp probe (every 5 ms until ready, see supervisor/health.py) or
# the server's own "open" line (no polling: the line wakes the check)
CHECKS = {
    "tcp": "{{tcp: {{port: {port}}}, interval: 1s, start_period: 10s}}",
    "log": "{{log: '^open '}}",
}


def main() -> None:
    for check in CHECKS:
        bench(check)


def bench(check: str) -> None:
    ports = free_ports(PROCESSES)
    body = "version: 1\nprocesses:\n"
    steps = ""
    for i, port in enumerate(ports):
        body += (
            f"  s{i}:\n    args: [{sys.executable}, server.py, '{port}', '{READY_AFTER}']\n"
            f"    healthcheck: {CHECKS[check].format(port=port)}\n"
        )
        ready = f"      - wait_for: {{process: s{i}, condition: healthy, timeout: 10s}}\n"
        steps += f"      - start: s{i}\n{ready}      - stop: s{i}\n      - start: s{i}\n{ready}"
    body += f"recipes:\n  bench:\n    steps:\n{steps}"
    work = project(body)
    run(work, "status")  # supervisor up
    run(work, "recipe", "run", "bench", "--dry-run")  # its recipe engine made, config read
    t0 = time.perf_counter()
    answer = run(work, "recipe", "run", "bench")
    total = time.perf_counter() - t0
    floor = PROCESSES * 2 * READY_AFTER
    data = answer["data"]
    inside = data["ended_at"] - data["started_at"]
    opened: dict[str, list[float]] = {}
    for i in range(PROCESSES):
        lines = run(work, "logs", f"s{i}", "--grep", "^open ", "--run", "all")["data"]["lines"]
        opened[f"s{i}"] = [float(line["text"].split()[1]) for line in lines]
    late = detect = stops = 0.0
    for step in data["steps"]:
        took = step["ended_at"] - step["started_at"]
        if step["kind"] == "start":
            listened = opened[step["target"]].pop(0)
            late += listened - step["started_at"] - READY_AFTER
            detect += step["ended_at"] - listened
        elif step["kind"] == "stop":
            stops += took
    between = inside - sum(s["ended_at"] - s["started_at"] for s in data["steps"])
    print(
        f"{check} readiness: recipe of {len(data['steps'])} steps ({PROCESSES} processes, each ready "
        f"{READY_AFTER * 1000:.0f} ms after fork, started twice): {total:.3f} s, "
        f"{total / floor:.2f}x the {floor:.1f} s readiness floor (goal <= 1.10x), "
        f"success={answer['success']}; in the supervisor {inside:.3f} s ({inside / floor:.2f}x): "
        f"servers listening later than the floor {late:.3f} s, start answered after listening "
        f"{detect:.3f} s, stop steps {stops:.3f} s, between steps {between:.3f} s; "
        f"client call {total - inside:.3f} s"
    )
    run(work, "daemon", "stop")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
