"""The event stream: delivery latency from a state change to SSE clients, and the
supervisor's idle CPU with nobody listening.

Latency: each event carries `ts`, the moment the supervisor published it (the moment of
the transition); a client process reads every subscriber's socket and takes its arrival
time. With 1 and with 100 subscribers (target: median < 5 ms with 100).

Idle CPU: the supervisor's own CPU time (utime + stime) over IDLE_SECONDS with two
processes running and nothing happening: nobody listening, 100 idle subscribers, and
nobody again after they left. `--baseline REF` measures the same idle supervisor of a git
ref (e.g. main, before the event bus), run from `git archive` in a temporary folder.

    python bench/procler_events.py [--baseline REF] [--cycles N]
"""

from __future__ import annotations

import argparse
import json
import os
import selectors
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
from _timing import ROOT, cpu_seconds, tool

IDLE_SECONDS = 10.0
SLEEP = f"[{sys.executable}, -c, 'import time; time.sleep(3600)']"
CONFIG = f"version: 1\nprocesses:\n  api:\n    args: {SLEEP}\n  db:\n    args: {SLEEP}\n"


def project() -> Path:
    work = Path(tempfile.mkdtemp(prefix="procler-events-"))
    (work / ".procler").mkdir()
    (work / ".procler" / "config.yaml").write_text(CONFIG)
    return work


def run(work: Path, *args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    out = subprocess.run(
        [tool("procler"), *args], cwd=work, capture_output=True, text=True, env=env, timeout=60
    )
    answer: dict[str, Any] = json.loads(out.stdout)
    return answer


def socket_path(work: Path) -> str:
    return str(work / ".procler" / "state" / "supervisor.sock")


def subscribe(work: Path) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(10)
    sock.connect(socket_path(work))
    sock.sendall(b"GET /v1/events HTTP/1.1\r\nHost: procler\r\n\r\n")
    head = b""
    while b"data: " not in head or not head.endswith(b"\n\n\r\n"):  # headers + the snapshot
        head += sock.recv(65536)
    sock.setblocking(False)
    return sock


def ts(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def latency(work: Path, subscribers: int, cycles: int) -> list[float]:
    """Seconds from publication to arrival, per event and subscriber, over `cycles` stop +
    start cycles of one process (four transitions each)."""
    socks = [subscribe(work) for _ in range(subscribers)]
    sel = selectors.DefaultSelector()
    for sock in socks:
        sel.register(sock, selectors.EVENT_READ)
    # Only arrival times and bytes while events flow: parsing waits until the end, so this
    # client's own work does not delay the sockets it reads next.
    arrivals: dict[socket.socket, list[tuple[float, bytes]]] = {sock: [] for sock in socks}
    frames = 0
    expected = cycles * 4 * subscribers
    trigger = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import subprocess, sys\n"
            f"for _ in range({cycles}):\n"
            f"    subprocess.run([{tool('procler')!r}, 'stop', 'api'], capture_output=True)\n"
            f"    subprocess.run([{tool('procler')!r}, 'start', 'api'], capture_output=True)\n",
        ],
        cwd=work,
    )
    deadline = time.monotonic() + 30 + cycles * 2
    while frames < expected and time.monotonic() < deadline:
        for key, _ in sel.select(timeout=1.0):
            ready = key.fileobj
            assert isinstance(ready, socket.socket)
            data = ready.recv(65536)
            arrivals[ready].append((time.time(), data))
            frames += data.count(b"data: ")
    samples: list[float] = []
    for chunks in arrivals.values():
        pending = b""
        for arrived, data in chunks:
            *done, pending = (pending + data).split(b"\n\n")
            for frame in done:
                for line in frame.split(b"\n"):
                    if line.startswith(b"data: "):
                        samples.append(arrived - ts(json.loads(line[6:])["ts"]))
    trigger.wait(timeout=60)
    for sock in socks:
        sock.close()
    return samples


def idle_cpu(work: Path) -> float:
    """The supervisor's CPU milliseconds per second over IDLE_SECONDS."""
    pid = int((work / ".procler" / "state" / "supervisor.lock").read_text())
    before = cpu_seconds(pid)
    time.sleep(IDLE_SECONDS)
    return (cpu_seconds(pid) - before) * 1000 / IDLE_SECONDS


def baseline_env(ref: str, into: Path) -> dict[str, str]:
    """An environment whose procler is the one of git ref `ref` (unpacked into `into`)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], capture_output=True)
    archive.check_returncode()
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    src = [str(into / "packages" / p / "src") for p in ("agentcli", "procler")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(src)}


def measure_idle(label: str, env: dict[str, str] | None, results: Results) -> None:
    work = project()
    started = run(work, "up", env=env)
    try:
        cpu = idle_cpu(work)
        print(f"supervisor idle CPU, {label}: {cpu:.2f} ms/s")
        results.ours(f"idle CPU, {label}", cpu, "ms/s")
    except OSError as exc:  # its supervisor did not start or did not stay
        print(f"supervisor idle CPU, {label}: not measured ({exc}; up answered {started})")
    run(work, "daemon", "stop", env=env)
    shutil.rmtree(work, ignore_errors=True)  # the supervisor may still be removing its WAL


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--baseline", help="git ref to compare idle CPU with (e.g. main)")
    parser.add_argument("--cycles", type=int, default=25)
    args = parser.parse_args()
    results = Results(
        f"event stream: delivery to SSE subscribers over {args.cycles} stop+start cycles; "
        f"the supervisor's idle CPU over {IDLE_SECONDS:g} s, 2 processes running"
    )
    work = project()
    run(work, "up")
    pid = int((work / ".procler" / "state" / "supervisor.lock").read_text())
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for subscribers in (1, 100):
        cpu = cpu_seconds(pid)
        got = latency(work, subscribers, args.cycles)
        cpu = cpu_seconds(pid) - cpu
        got.sort()
        p99 = got[min(len(got) - 1, int(len(got) * 0.99))]
        print(
            f"event delivery, {subscribers} SSE subscriber(s), {len(got)} deliveries: "
            f"median {statistics.median(got) * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms "
            f"(target: median < 5 ms with 100); supervisor CPU {cpu * 1000:.0f} ms "
            "(the stop/start commands, the subscriptions and the deliveries)"
        )
        goal = "< 5" if subscribers == 100 else None
        results.ours(
            f"{subscribers} subscriber(s): median", statistics.median(got) * 1000, "ms", goal=goal
        )
        results.ours(f"{subscribers} subscriber(s): p99", p99 * 1000, "ms")
    for label, listeners in (
        ("nobody listening", 0),
        ("100 idle subscribers", 100),
        ("nobody listening again", 0),
    ):
        idle_subscribers = [subscribe(work) for _ in range(listeners)]
        cpu = idle_cpu(work)
        print(f"supervisor idle CPU, {label}: {cpu:.2f} ms/s")
        results.ours(f"idle CPU, {label}", cpu, "ms/s")
        for sock in idle_subscribers:
            sock.close()
    run(work, "daemon", "stop")
    shutil.rmtree(work, ignore_errors=True)  # the supervisor may still be removing its WAL
    if args.baseline:
        with tempfile.TemporaryDirectory(prefix="procler-baseline-") as tmp:
            baseline = baseline_env(args.baseline, Path(tmp))
            measure_idle(f"{args.baseline} (no event bus)", baseline, results)
        measure_idle("this tree", None, results)
    results.write()


if __name__ == "__main__":
    main()
