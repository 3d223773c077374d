"""Health-gated starts: a chain of 10 processes each ready 200 ms after start
(`depends_on: healthy`, target total <= 10 x 200 ms x 1.1), and readiness detection
latency: from the moment a port opens to `healthy` (target median <= 100 ms).

For comparison on paper: process-compose probes every 10 s by default and docker compose's
healthcheck interval defaults to 30 s, so a dependent waits up to a full period.
"""

from __future__ import annotations

import json
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from _results import Results
from _timing import tool

CHAIN = 10
READY_AFTER = 0.2
LATENCY_RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 15
SERVER = """
import os, socket, sys, time
# Ready READY seconds after the process was forked (not after Python started), counted
# from the latest moment the fork can have been: the kernel gives the fork's boot time in
# clock ticks (it is before the next tick), and the time this process has run or waited
# to run (schedstat, in ns) is at most its age. Never ready early; late by the lesser
# slack (a ms or two). Its line: `open LISTENED FORKED` (wall times).
ticks = int(open("/proc/self/stat").read().rsplit(")", 1)[1].split()[19])
ran, waited = map(int, open("/proc/self/schedstat").read().split()[:2])
boot, now = time.clock_gettime(time.CLOCK_BOOTTIME), time.time()
fork = min((ticks + 1) / os.sysconf("SC_CLK_TCK"), boot - (ran + waited) / 1e9)
forked = now - (boot - fork)
time.sleep(max(0.0, forked + float(sys.argv[2]) - time.time()))
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen()
print(f"open {time.time():.6f} {forked:.6f}", flush=True)
while True:
    s.accept()[0].close()
"""


def free_ports(n: int) -> list[int]:
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def ts(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def project(body: str) -> Path:
    work = Path(tempfile.mkdtemp(prefix="procler-ready-"))
    (work / ".procler").mkdir()
    (work / "server.py").write_text(SERVER)
    (work / ".procler" / "config.yaml").write_text(body)
    return work


def run(work: Path, *args: str) -> dict[str, Any]:
    out = subprocess.run([tool("procler"), *args], cwd=work, capture_output=True, text=True)
    answer: dict[str, Any] = json.loads(out.stdout)
    return answer


def chain(results: Results) -> None:
    ports = free_ports(CHAIN)
    body = "version: 1\nprocesses:\n"
    for i, port in enumerate(ports):
        body += (
            f"  s{i}:\n    args: [{sys.executable}, server.py, '{port}', '{READY_AFTER}']\n"
            f"    healthcheck: {{tcp: {{port: {port}}}, interval: 1s, start_period: 10s}}\n"
        )
        if i:
            body += f"    depends_on: [{{name: s{i - 1}, condition: healthy}}]\n"
    body += f"groups:\n  chain: {{processes: [s{CHAIN - 1}]}}\n"
    work = project(body)
    run(work, "daemon", "status")
    run(work, "list")
    run(work, "status")  # supervisor warm
    t0 = time.perf_counter()
    answer = run(work, "group", "start", "chain", "--timeout", "60s")
    run(work, "wait", f"s{CHAIN - 1}", "--for", "healthy", "--timeout", "30s")
    total = time.perf_counter() - t0
    ideal = CHAIN * READY_AFTER
    print(
        f"chain of {CHAIN} (each ready {READY_AFTER * 1000:.0f} ms after start): "
        f"{total:.3f} s, {total / ideal:.2f}x the {ideal:.1f} s floor "
        f"(target <= 1.10x), success={answer['success']}"
    )
    results.ours(f"chain of {CHAIN} healthy", total, "s")
    results.peer(f"floor ({CHAIN} x {READY_AFTER * 1000:.0f} ms)", ideal, "s")
    results.ratio("chain / floor", total / ideal, goal="<= 1.1")
    run(work, "daemon", "stop")
    shutil.rmtree(work)


def latency(results: Results) -> None:
    (port,) = free_ports(1)
    work = project(
        "version: 1\nprocesses:\n"
        f"  srv:\n    args: [{sys.executable}, server.py, '{port}', '0.3']\n"
        f"    healthcheck: {{tcp: {{port: {port}}}, interval: 10s, start_period: 30s}}\n"
    )
    samples = []
    for _ in range(LATENCY_RUNS):
        run(work, "restart", "srv")
        status = run(work, "wait", "srv", "--for", "healthy", "--timeout", "20s")["data"]
        lines = run(work, "logs", "srv", "--grep", "^open ", "--tail", "1")["data"]["lines"]
        opened = float(lines[0]["text"].split()[1])
        samples.append(ts(status["health"]["since"]) - opened)
    print(
        f"readiness latency (port open -> healthy), {LATENCY_RUNS} runs: "
        f"median {statistics.median(samples) * 1000:.0f} ms, max {max(samples) * 1000:.0f} ms "
        "(target median <= 100 ms; process-compose default period 10 s)"
    )
    results.ours(
        "port open -> healthy, median", statistics.median(samples) * 1000, "ms", goal="<= 100"
    )
    results.ours("port open -> healthy, max", max(samples) * 1000, "ms")
    run(work, "daemon", "stop")
    shutil.rmtree(work)


if __name__ == "__main__":
    results = Results(
        f"health-gated starts: a chain of {CHAIN} `depends_on: healthy`, each ready "
        f"{READY_AFTER * 1000:.0f} ms after start; readiness detection over {LATENCY_RUNS} restarts"
    )
    chain(results)
    latency(results)
    results.write()
