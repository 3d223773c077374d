"""100 sleeping processes: time from `procler start --all` to all running (target < 1 s),
then the supervisor's CPU and RSS while idle for 30 s (target < 1% of one core)."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _timing import tool

COUNT = 100
IDLE_SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 30.0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100.0


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="procler-scale-"))
    (work / ".procler").mkdir()
    (work / ".procler" / "config.yaml").write_text(
        "version: 1\nprocesses:\n"
        + "".join(f"  p{i}:\n    args: [sleep, '3600']\n" for i in range(COUNT))
    )
    procler = tool("procler")
    subprocess.run([procler, "daemon", "status"], cwd=work, check=True, capture_output=True)
    subprocess.run([procler, "status"], cwd=work, check=True, capture_output=True)  # warm
    t0 = time.perf_counter()
    out = subprocess.run([procler, "start", "--all"], cwd=work, capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    procs = json.loads(out.stdout)["data"]["processes"]
    running = sum(p["status"] == "running" for p in procs)
    print(f"start --all: {running}/{COUNT} running in {elapsed:.3f} s (target < 1 s)")
    pid = json.loads(
        subprocess.run(
            [procler, "daemon", "status"], cwd=work, capture_output=True, text=True
        ).stdout
    )["data"]["pid"]
    before = cpu_seconds(pid)
    time.sleep(IDLE_SECONDS)
    used = cpu_seconds(pid) - before
    print(
        f"idle {IDLE_SECONDS:g} s with {COUNT} running: supervisor CPU "
        f"{100 * used / IDLE_SECONDS:.2f}% of one core (target < 1%), RSS {rss_bytes(pid) / 2**20:.1f} MiB"
    )
    subprocess.run([procler, "daemon", "stop"], cwd=work, capture_output=True)
    subprocess.run(["rm", "-rf", str(work)])


if __name__ == "__main__":
    main()
