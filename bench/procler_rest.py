"""GET /v1/processes over `procler serve`'s TCP listener: 50 processes, 4 concurrent
clients (processes, keep-alive connections) for 10 s; requests per second, p50 and p99.
GET /v1/groups, measured the same way, is the listener's own share (HTTP, guard, routing,
envelope) without the 50 processes' status. Each line also gives the supervisor's CPU
time per request (from /proc/PID/stat), which, unlike latency, does not depend on what
else loads the machine.

Goal: p99 < 10 ms. process-compose's REST API is not compared: it is in none of the
registries this project installs from (PyPI, Debian, npm), so ours is measured alone.
Usage: procler_rest.py [SECONDS] [CLIENTS].
"""

from __future__ import annotations

import http.client
import json
import multiprocessing
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _results import Results
from _timing import cpu_seconds, tool

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
CLIENTS = int(sys.argv[2]) if len(sys.argv) > 2 else 4
PROCESSES = 50


def client(
    port: int, token: str, path: str, until: float, out: multiprocessing.Queue[list[float]]
) -> None:
    """GET path in a loop on one keep-alive connection; every latency in seconds."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Authorization": f"Bearer {token}"}
    latencies = []
    while time.monotonic() < until:
        t0 = time.perf_counter()
        conn.request("GET", path, headers=headers)
        resp = conn.getresponse()
        body = resp.read()
        latencies.append(time.perf_counter() - t0)
        if resp.status != 200 or not json.loads(body)["success"]:
            raise SystemExit(f"unexpected answer {resp.status}: {body[:200]!r}")
    conn.close()
    out.put(latencies)


def main() -> None:
    results = Results(
        f"REST over `procler serve`: {PROCESSES} processes, {CLIENTS} keep-alive clients "
        f"for {SECONDS:g} s each path"
    )
    work = Path(tempfile.mkdtemp(prefix="procler-bench-rest-"))
    (work / ".procler").mkdir()
    sleep = f"[{sys.executable}, -c, 'import time; time.sleep(3600)']"
    (work / ".procler" / "config.yaml").write_text(
        "version: 1\nprocesses:\n"
        + "".join(f"  p{i}:\n    args: {sleep}\n" for i in range(PROCESSES))
    )
    procler = tool("procler")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROCLER_")}

    def run(*args: str) -> dict[str, object]:
        done = subprocess.run(
            [procler, *args], cwd=work, env=env, capture_output=True, text=True, check=True
        )
        return dict(json.loads(done.stdout)["data"])

    try:
        run("up")
        about = run("serve", "--port", "0")
        port = int(str(about["port"]))
        token = Path(str(about["token_file"])).read_text().strip()
        supervisor = int(str(run("daemon", "status")["pid"]))
        for path in ("/v1/processes", "/v1/groups"):
            before = cpu_seconds(supervisor)
            latencies = load(port, token, path)
            per_request = (cpu_seconds(supervisor) - before) / len(latencies)
            report(path, latencies, per_request)
            goal = "< 10" if path == "/v1/processes" else None
            results.ours(f"GET {path}", len(latencies) / SECONDS, "req/s", better="higher")
            results.ours(f"GET {path} p50", statistics.median(latencies) * 1000, "ms")
            results.ours(f"GET {path} p99", p99(latencies) * 1000, "ms", goal=goal)
            results.ours(f"GET {path} supervisor CPU", per_request * 1000, "ms/request")
        results.write()
    finally:
        subprocess.run([procler, "daemon", "stop"], cwd=work, env=env, capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


def load(port: int, token: str, path: str) -> list[float]:
    """Every latency of CLIENTS clients asking path for SECONDS, sorted."""
    queue: multiprocessing.Queue[list[float]] = multiprocessing.Queue()
    until = time.monotonic() + SECONDS
    workers = [
        multiprocessing.Process(target=client, args=(port, token, path, until, queue))
        for _ in range(CLIENTS)
    ]
    for w in workers:
        w.start()
    latencies = sorted(x for _ in workers for x in queue.get(timeout=SECONDS + 30))
    for w in workers:
        w.join(timeout=10)
    return latencies


def p99(latencies: list[float]) -> float:
    """The 99th percentile of sorted latencies."""
    return latencies[int(len(latencies) * 0.99)]


def report(path: str, latencies: list[float], cpu_per_request: float) -> None:
    p50 = statistics.median(latencies) * 1000
    p99_ms = p99(latencies) * 1000
    print(
        f"GET {path} ({PROCESSES} processes, {CLIENTS} clients, {SECONDS:g}s): "
        f"{len(latencies) / SECONDS:.0f} req/s, p50 {p50:.2f} ms, p99 {p99_ms:.2f} ms, "
        f"supervisor CPU {cpu_per_request * 1000:.2f} ms/request "
        f"(goal p99 < 10 ms: {'met' if p99_ms < 10 else 'NOT met'}; load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
    )


if __name__ == "__main__":
    main()
