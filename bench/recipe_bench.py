"""A recipe of 20 steps (start, wait_for healthy, stop, start, wait_for healthy on each of 4
local processes that become ready 100 ms after they are forked): total wall time of
`procler recipe run` against the sum of the readiness floors (8 x 100 ms), ratio printed.
Goal: <= 1.10x (no sleeps hidden in step transitions). Readiness seen by a tcp probe, then
by the server's log line; each RUNS times (argument 1, default 5: the machine is shared
and noisy), medians at the end.

Where the rest goes, from the step records (their `transitions`: when each start began,
each stop signalled, each process came up or ended, supervisor-side) and the servers' own
"open LISTENED FORKED" lines (the server counts its 100 ms from the latest moment its
fork can have been, see procler_readiness.SERVER): a start step's way to the fork, how
late the server listened after its 100 ms (interpreter start under the machine's load),
readiness detection, and the way back; a stop step's way to its signal, the exit, and the
way back; the wait_for steps; the gaps between steps (a checkpoint each); the client call
(the `procler` process and the socket round trip). The supervisor's own share is its time
less the floor and the servers' lateness: everything else, process exits included."""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import time
from pathlib import Path

from _results import Results
from procler_readiness import free_ports, project, run

PROCESSES = 4
READY_AFTER = 0.1
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
# how readiness is seen: a tcp probe (every 5 ms until ready, see supervisor/health.py) or
# the server's own "open" line (no polling: the line wakes the check)
CHECKS = {
    "tcp": "{{tcp: {{port: {port}}}, interval: 1s, start_period: 10s}}",
    "log": "{{log: '^open '}}",
}


def main() -> None:
    results = Results(
        f"recipe of 20 steps on {PROCESSES} processes each ready {READY_AFTER * 1000:.0f} ms after "
        f"fork, median of {RUNS} runs, against the {PROCESSES * 2 * READY_AFTER:.1f} s readiness floor"
    )
    for check in CHECKS:
        load = os.getloadavg()[0]
        runs = [bench(check) for _ in range(RUNS)]
        print(
            f"{check} readiness, {RUNS} runs (load {load:.2f} before, "
            f"{os.getloadavg()[0]:.2f} after): median "
            f"{statistics.median(r[0] for r in runs):.2f}x the floor (goal <= 1.10x); less "
            f"the servers' lateness {statistics.median(r[1] for r in runs):.2f}x; the "
            f"supervisor's own share {statistics.median(r[2] for r in runs):.2f}x"
        )
        floor = PROCESSES * 2 * READY_AFTER
        results.ours(
            f"{check} readiness, recipe", statistics.median(r[0] for r in runs) * floor, "s"
        )
        results.ratio(
            f"{check} readiness / floor", statistics.median(r[0] for r in runs), goal="<= 1.1"
        )
        results.ratio(f"{check}: supervisor's share / floor", statistics.median(r[2] for r in runs))
    results.peer("readiness floor", PROCESSES * 2 * READY_AFTER, "s")
    results.write()


def bench(check: str) -> tuple[float, float, float]:
    """One run: total, total less the servers' lateness, and floor plus the supervisor's
    own share, each over the floor."""
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
    try:
        return measure(work, check)
    finally:
        run(work, "daemon", "stop")
        shutil.rmtree(work, ignore_errors=True)  # the exiting supervisor removes its socket


def measure(work: Path, check: str) -> tuple[float, float, float]:
    run(work, "status")  # supervisor up
    run(work, "recipe", "run", "bench", "--dry-run")  # its recipe engine made, config read
    t0 = time.perf_counter()
    answer = run(work, "recipe", "run", "bench")
    total = time.perf_counter() - t0
    floor = PROCESSES * 2 * READY_AFTER
    data = answer["data"]
    inside = data["ended_at"] - data["started_at"]
    opened: dict[str, list[tuple[float, float]]] = {}  # (listened, forked) of each run
    for i in range(PROCESSES):
        # the log store writes a line within 50 ms of its output: the last run's may be due
        deadline = time.monotonic() + 5
        while True:
            found = run(work, "logs", f"s{i}", "--grep", "^open ", "--run", "all")["data"]
            if len(found["lines"]) >= 2 or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        opened[f"s{i}"] = [
            (float(line["text"].split()[1]), float(line["text"].split()[2]))
            for line in found["lines"]
        ]
    parts = dict.fromkeys(("fork", "late", "detect", "answer", "signal", "exit", "stopped"), 0.0)
    waits = 0.0
    for step in data["steps"]:
        # the step's own status changes (supervisor-side): starting/stopping, then the end
        at = {t["to"]: t["at"] for t in step["transitions"]}
        if step["kind"] == "start":
            listened, forked = opened[step["target"]].pop(0)
            parts["fork"] += forked - step["started_at"]
            parts["late"] += listened - forked - READY_AFTER
            parts["detect"] += at["healthy"] - listened
            parts["answer"] += step["ended_at"] - at["healthy"]
        elif step["kind"] == "stop":
            parts["signal"] += at["stopping"] - step["started_at"]
            parts["exit"] += at["stopped"] - at["stopping"]
            parts["stopped"] += step["ended_at"] - at["stopped"]
        else:
            waits += step["ended_at"] - step["started_at"]
    between = inside - sum(s["ended_at"] - s["started_at"] for s in data["steps"])
    ms = {k: f"{v * 1000:.0f}" for k, v in parts.items()}
    # what the supervisor itself adds: its time less the floor and the servers' lateness
    # (an interpreter starting late under load is the machine's, not a step transition)
    share = inside - floor - parts["late"]
    print(
        f"{check} readiness: recipe of {len(data['steps'])} steps ({PROCESSES} processes, each ready "
        f"{READY_AFTER * 1000:.0f} ms after fork, started twice): {total:.3f} s, "
        f"{total / floor:.2f}x the {floor:.1f} s readiness floor (goal <= 1.10x), "
        f"success={answer['success']}; in the supervisor {inside:.3f} s ({inside / floor:.2f}x). "
        f"Over the floor, in ms: starts: step to fork {ms['fork']}, servers listening late "
        f"{ms['late']}, listening to healthy {ms['detect']}, healthy to step end "
        f"{ms['answer']}; stops: step to signal {ms['signal']}, signal to stopped "
        f"{ms['exit']}, stopped to step end {ms['stopped']}; wait_for steps "
        f"{waits * 1000:.0f}; between steps {between * 1000:.0f}; "
        f"client call {(total - inside) * 1000:.0f}; the supervisor's own share "
        f"{share * 1000:.0f} ms ({(floor + share) / floor:.2f}x the floor)"
    )
    return total / floor, (total - parts["late"]) / floor, (floor + share) / floor


if __name__ == "__main__":
    main()
