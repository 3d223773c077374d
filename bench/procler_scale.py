"""N sleeping processes (default 100; `procler_scale.py 1000` for issue 21's goals):
time from `procler start --all` to all running, `procler status` wall time with N
processes, the supervisor's CPU and RSS while idle, then `procler stop --all`.

Goals: 100 running in < 1 s; 1,000 running in < 3 s, status < 100 ms, idle CPU < 1% of
one core, RSS < 150 MiB. Usage: procler_scale.py [COUNT] [IDLE_SECONDS].
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _results import Results
from _timing import tool

COUNT = int(sys.argv[1]) if len(sys.argv) > 1 else 100
IDLE_SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 30.0
START_GOAL = 1.0 if COUNT <= 100 else 3.0
STATUS_RUNS = 10


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100.0


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def main() -> None:
    results = Results(
        f"{COUNT:,} sleeping processes: `start --all`, `status`, {IDLE_SECONDS:g} s idle, "
        "`stop --all`"
    )
    work = Path(tempfile.mkdtemp(prefix="procler-scale-"))
    (work / ".procler").mkdir()
    (work / ".procler" / "config.yaml").write_text(
        "version: 1\nprocesses:\n"
        + "".join(f"  p{i}:\n    args: [sleep, '3600']\n" for i in range(COUNT))
    )
    procler = tool("procler")
    # `why` runs in the supervisor, so it starts one (and it loads the config)
    subprocess.run([procler, "why", "p0"], cwd=work, check=True, capture_output=True)
    pid = json.loads(
        subprocess.run(
            [procler, "daemon", "status"], cwd=work, capture_output=True, text=True
        ).stdout
    )["data"]["pid"]
    cpu0, t0 = cpu_seconds(pid), time.perf_counter()
    out = subprocess.run([procler, "start", "--all"], cwd=work, capture_output=True, text=True)
    elapsed, cpu = time.perf_counter() - t0, cpu_seconds(pid) - cpu0
    procs = json.loads(out.stdout)["data"]["processes"]
    running = sum(p["status"] == "running" for p in procs)
    print(
        f"start --all: {running}/{COUNT} running in {elapsed:.3f} s (goal < {START_GOAL:g} s), "
        f"supervisor CPU {cpu:.2f} s, load average {os.getloadavg()[0]:.1f}"
    )
    results.ours("start --all", elapsed, "s", goal=f"< {START_GOAL:g}")
    results.ours("running after start --all", running, "", better="higher", goal=f"== {COUNT}")
    results.ours("supervisor CPU for start --all", cpu, "s")
    walls = []
    cpu0 = cpu_seconds(pid)
    for _ in range(STATUS_RUNS):
        t0 = time.perf_counter()
        subprocess.run([procler, "status"], cwd=work, check=True, capture_output=True)
        walls.append(time.perf_counter() - t0)
    cpu = (cpu_seconds(pid) - cpu0) / STATUS_RUNS
    print(
        f"status with {COUNT} processes: median {1000 * statistics.median(walls):.0f} ms, "
        f"max {1000 * max(walls):.0f} ms over {STATUS_RUNS} runs (goal < 100 ms), "
        f"supervisor CPU {1000 * cpu:.0f} ms per status"
    )
    results.ours("status median", 1000 * statistics.median(walls), "ms", goal="< 100")
    results.ours("status max", 1000 * max(walls), "ms")
    results.ours("supervisor CPU per status", 1000 * cpu, "ms")
    before = cpu_seconds(pid)
    time.sleep(IDLE_SECONDS)
    used = cpu_seconds(pid) - before
    print(
        f"idle {IDLE_SECONDS:g} s with {COUNT} running: supervisor CPU "
        f"{100 * used / IDLE_SECONDS:.2f}% of one core (goal < 1%), "
        f"RSS {rss_bytes(pid) / 2**20:.1f} MiB (goal < 150 MiB)"
    )
    idle = 100 * used / IDLE_SECONDS
    results.ours("supervisor idle CPU, of one core", idle, "%", goal="< 1")
    results.ours("supervisor RSS", rss_bytes(pid) / 2**20, "MiB", goal="< 150")
    cpu0, t0 = cpu_seconds(pid), time.perf_counter()
    out = subprocess.run([procler, "stop", "--all"], cwd=work, capture_output=True, text=True)
    elapsed, cpu = time.perf_counter() - t0, cpu_seconds(pid) - cpu0
    answer = json.loads(out.stdout)
    if answer["success"]:
        done = sum(p["status"] == "stopped" for p in answer["data"]["processes"])
        what = f"{done}/{COUNT} stopped"
        results.ours("stop --all", elapsed, "s")
        results.ours("supervisor CPU for stop --all", cpu, "s")
    else:
        what = f"{answer['error_code']} ({answer['error']})"
    print(
        f"stop --all: {what} in {elapsed:.3f} s, supervisor CPU {cpu:.2f} s, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    subprocess.run([procler, "daemon", "stop"], cwd=work, capture_output=True)
    subprocess.run(["rm", "-rf", str(work)])
    results.write()


if __name__ == "__main__":
    main()
