"""Stops that let a program finish, recovery after `kill -9` of the supervisor, and how
soon `start` answers for a process with a health check.

1. `stop` of a `command:` whose program needs 1.5 s to shut down after SIGTERM: how long
   the stop took and whether the program finished (before: the shell died at once and the
   group was SIGKILLed in ~20 ms, cutting the handler short).
2. `kill -9` of the supervisor, then a `status` at once, ROUNDS times: how long that first
   answer took and how many processes were in `backoff` once the old sentinel was done
   (before: when the new supervisor restored before the old sentinel's sweep, the sweep
   killed what it restored; `tests/supervisor/test_recovery.py` makes that race certain).
3. `start` of a process whose tcp check passes ~50 ms after start: time to the answer and
   its status (before: a fixed 150 ms window, then `running`).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _results import Results
from _timing import tool

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 10
results = Results(
    f"graceful stop, kill -9 of the supervisor ({ROUNDS} rounds), restart of a process "
    f"healthy ~50 ms after start ({ROUNDS} runs)"
)
GRACEFUL = """
import signal, sys, time
stop = []
signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
while not stop:
    time.sleep(0.01)
time.sleep(1.5)
open(sys.argv[1], "a").write("clean\\n")
"""
LISTEN = """
import socket, sys, time
time.sleep(0.05)
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen()
while True:
    s.accept()[0].close()
"""


def project(body: str) -> Path:
    work = Path(tempfile.mkdtemp(prefix="procler-recovery-"))
    (work / ".procler").mkdir()
    (work / "graceful.py").write_text(GRACEFUL)
    (work / "listen.py").write_text(LISTEN)
    (work / ".procler" / "config.yaml").write_text(body.replace("WORK", str(work)))
    return work


def run(work: Path, *args: str) -> dict:  # type: ignore[type-arg]
    out = subprocess.run([tool("procler"), *args], cwd=work, capture_output=True, text=True)
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def sentinels(work: Path) -> int:
    count = 0
    for entry in os.listdir("/proc"):
        try:
            argv = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        count += b"procler.supervisor.sentinel" in argv and str(work).encode() in argv
    return count


def graceful_stop() -> None:
    work = project(
        f"version: 1\nprocesses:\n  db:\n    command: {sys.executable} WORK/graceful.py WORK/db.txt\n"
    )
    run(work, "start", "db")
    t0 = time.perf_counter()
    run(work, "stop", "db")
    took = time.perf_counter() - t0
    finished = (work / "db.txt").exists()
    print(f"stop of a command: needing 1.5 s after TERM: {took:.2f} s, finished={finished}")
    results.ours("stop of a program needing 1.5 s after TERM", took, "s")
    results.ours("its handler finished", int(finished), "", better="higher", goal="== 1")
    run(work, "daemon", "stop")
    shutil.rmtree(work)


def kill_9_rounds() -> None:
    sleep = f'[{sys.executable}, -c, "import time; time.sleep(600)"]'
    work = project(
        f"version: 1\nprocesses:\n  slow:\n    command: {sys.executable} WORK/graceful.py WORK/x.txt\n"
        f"  quick:\n    args: {sleep}\n"
    )
    run(work, "start", "--all")
    answers, backoff = [], 0
    for _ in range(ROUNDS):
        pid = int((work / ".procler" / "state" / "supervisor.lock").read_text())
        os.kill(pid, signal.SIGKILL)
        t0 = time.perf_counter()
        run(work, "status")
        answers.append(time.perf_counter() - t0)
        deadline = time.monotonic() + 10
        while sentinels(work) > 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        statuses = [p["status"] for p in run(work, "status")["data"]["processes"]]
        backoff += statuses.count("backoff")
    print(
        f"kill -9 + immediate status, {ROUNDS} rounds: first answer median "
        f"{statistics.median(answers):.2f} s, max {max(answers):.2f} s; "
        f"processes in backoff afterwards: {backoff}"
    )
    results.ours("kill -9, first status median", statistics.median(answers), "s")
    results.ours("processes in backoff after kill -9", backoff, "", goal="== 0")
    run(work, "daemon", "stop")
    shutil.rmtree(work)


def start_answer() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    work = project(
        f"version: 1\nprocesses:\n  api:\n    args: [{sys.executable}, WORK/listen.py, '{port}']\n"
        f"    healthcheck: {{tcp: {{port: {port}}}, interval: 1s, start_period: 10s}}\n"
    )
    run(work, "status")  # supervisor warm
    samples, status = [], ""
    for _ in range(ROUNDS):
        t0 = time.perf_counter()
        status = run(work, "restart", "api")["data"]["status"]
        samples.append(time.perf_counter() - t0)
    print(
        f"restart of a process healthy ~50 ms after start, {ROUNDS} runs: median "
        f"{statistics.median(samples) * 1000:.0f} ms, answered {status!r}"
    )
    results.ours("restart answered, median", statistics.median(samples) * 1000, "ms")
    results.ours("restart answered healthy", int(status == "healthy"), "", "higher", "== 1")
    run(work, "daemon", "stop")
    shutil.rmtree(work)


if __name__ == "__main__":
    graceful_stop()
    kill_9_rounds()
    start_answer()
    results.write()
