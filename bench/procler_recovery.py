"""Stops that let a program finish, recovery after `kill -9` of the supervisor, and how
soon `start` answers for a process with a health check.

1. `stop` of a `command:` whose program needs 1.5 s to shut down after SIGTERM: how long
   the stop took and whether the program finished (before: the shell died at once and the
   group was SIGKILLed in ~20 ms, cutting the handler short).
2. `kill -9` of the supervisor, then a `status` at once, ROUNDS times: how long that first
   answer took and how many processes were in `backoff` once the old sentinel was done
   (before: when the new supervisor restored before the old sentinel's sweep, the sweep
   killed what it restored; `tests/supervisor/test_recovery.py` makes that race certain).
   Once with a program that needs 1.5 s to stop (the new supervisor waits for the old
   sentinel to let it finish), once with programs that stop at once: the new supervisor's
   own time, which compares with code whose sentinel SIGKILLed after a fixed second.
3. `start` of a process whose tcp check passes ~50 ms after start: time to the answer and
   its status (before: a fixed 150 ms window, then `running`).
4. `kill -9` of a healthy process, ROUNDS times: how long until it listens again (the first
   restart after a crash of a healthy process), beside the program's own start time (fork
   to listening, measured alone) and, when npm can install PM2 (into a temp dir), PM2's
   figure for the same program in the same run. Goal: median <= own start + 0.1 s (before:
   a full backoff, 1 s then 2 s then 4 s).

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
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


def run(work: Path, *args: str) -> dict[str, Any]:
    out = subprocess.run([tool("procler"), *args], cwd=work, capture_output=True, text=True)
    answer: dict[str, Any] = json.loads(out.stdout)
    return answer


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


def kill_9_rounds(label: str, body: str) -> None:
    """kill -9 of the supervisor running `body`'s processes, then a status at once."""
    work = project(body)
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
        f"kill -9 + immediate status{label}, {ROUNDS} rounds: first answer median "
        f"{statistics.median(answers):.2f} s, max {max(answers):.2f} s; "
        f"processes in backoff afterwards: {backoff}"
    )
    results.ours(f"kill -9, first status median{label}", statistics.median(answers), "s")
    results.ours(f"processes in backoff after kill -9{label}", backoff, "", goal="== 0")
    run(work, "daemon", "stop")
    shutil.rmtree(work)


def kill_9() -> None:
    """With a program that takes 1.5 s to stop (the sentinel lets it finish before the new
    supervisor starts it again), and with programs that stop at once: the time the new
    supervisor itself takes, comparable with code whose sentinel did not wait."""
    sleep = f'[{sys.executable}, -c, "import time; time.sleep(600)"]'
    slow = f"  slow:\n    command: {sys.executable} WORK/graceful.py WORK/x.txt\n"
    quick = f"  quick:\n    args: {sleep}\n"
    other = f"  other:\n    args: {sleep}\n"
    kill_9_rounds("", f"version: 1\nprocesses:\n{slow}{quick}")
    kill_9_rounds(", programs that stop at once", f"version: 1\nprocesses:\n{quick}{other}")


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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def until_listening(port: int, bound: float = 30.0) -> float:
    """Seconds until something accepts on port (polled every ms), bounded."""
    t0 = time.perf_counter()
    while not listening(port) and time.perf_counter() - t0 < bound:
        time.sleep(0.001)
    return time.perf_counter() - t0


def own_start(script: Path, rounds: int) -> float:
    """The program's own start time: fork to listening, alone, median of rounds."""
    samples = []
    for _ in range(rounds):
        port = free_port()
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, str(script), str(port)])
        until_listening(port)
        samples.append(time.perf_counter() - t0)
        proc.kill()
        proc.wait()
    return statistics.median(samples)


def back_after_kill(pid_of: Callable[[], int], port: int, rounds: int) -> list[float]:
    """kill -9 of the listening process, then seconds until it listens again, rounds times."""
    samples = []
    for _ in range(rounds):
        pid = pid_of()
        time.sleep(0.3)  # a healthy process that has run a while
        t0 = time.perf_counter()
        os.kill(pid, signal.SIGKILL)
        while listening(port) and time.perf_counter() - t0 < 5:
            time.sleep(0.0005)  # the kernel closes the socket as the process dies
        until_listening(port)
        samples.append(time.perf_counter() - t0)
    return samples


def pm2_figure(script: Path, rounds: int) -> list[float] | None:
    """The same under PM2, installed with npm into a temp dir (None when it cannot be)."""
    npm = shutil.which("npm")
    if npm is None:
        return None
    home = Path(tempfile.mkdtemp(prefix="procler-pm2-"))
    try:
        installed = subprocess.run(
            [npm, "install", "pm2", "--no-audit", "--no-fund", "--silent"],
            cwd=home,
            capture_output=True,
            timeout=600,
        )
        pm2 = home / "node_modules" / ".bin" / "pm2"
        if installed.returncode != 0 or not pm2.exists():
            return None
        env = {**os.environ, "PM2_HOME": str(home / "pm2-home")}
        port = free_port()
        subprocess.run(
            [str(pm2), "start", str(script), "--name", "api", "--interpreter", sys.executable,
             "--", str(port)],
            env=env, capture_output=True, check=True, timeout=120,
        )  # fmt: skip
        until_listening(port)

        def pid() -> int:
            out = subprocess.run(
                [str(pm2), "jlist"], env=env, capture_output=True, check=True, timeout=60
            ).stdout
            return int(json.loads(out)[0]["pid"])

        try:
            return back_after_kill(pid, port, rounds)
        finally:
            subprocess.run([str(pm2), "kill"], env=env, capture_output=True, timeout=120)
    finally:
        shutil.rmtree(home, ignore_errors=True)


def crash_restart() -> None:
    port = free_port()
    work = project(
        f"version: 1\nprocesses:\n  api:\n    args: [{sys.executable}, WORK/listen.py, '{port}']\n"
        f"    healthcheck: {{tcp: {{port: {port}}}, interval: 1s}}\n"
        "    restart: {policy: always, max_restarts: 1000}\n"
    )
    own = own_start(work / "listen.py", ROUNDS)
    run(work, "up", "--wait")

    def pid() -> int:
        healthy = run(work, "wait", "api", "--for", "healthy", "--timeout", "30s")
        return int(healthy["data"]["pid"])

    ours = back_after_kill(pid, port, ROUNDS)
    run(work, "daemon", "stop")
    shutil.rmtree(work)
    script = work_script()
    peer = pm2_figure(script, ROUNDS)
    shutil.rmtree(script.parent)
    median = statistics.median(ours)
    print(
        f"kill -9 of a healthy process, {ROUNDS} rounds: back listening after median "
        f"{median * 1000:.0f} ms (max {max(ours) * 1000:.0f} ms); its own start "
        f"{own * 1000:.0f} ms, so the restart itself takes {(median - own) * 1000:.0f} ms "
        f"(goal <= 100 ms)"
        + (
            f"; PM2 median {statistics.median(peer) * 1000:.0f} ms (ratio "
            f"{median / statistics.median(peer):.2f}x)"
            if peer
            else "; PM2 not measured (npm could not install it)"
        )
    )
    results.ours("kill -9 of a healthy process, back listening, median", median * 1000, "ms")
    results.ours("the same, its own start alone, median", own * 1000, "ms")
    results.ours(
        "first restart after a crash of a healthy process, over its own start",
        (median - own) * 1000,
        "ms",
        goal="<= 100",
    )
    if peer:
        results.peer(
            "PM2, kill -9 of the same process, back listening, median",
            statistics.median(peer) * 1000,
            "ms",
        )
        results.ratio("back after kill -9, procler / PM2", median / statistics.median(peer))
    else:
        results.skip_peer("PM2", "npm could not install it into a temp dir")


def work_script() -> Path:
    """listen.py in a folder of its own (PM2 gets the same program)."""
    folder = Path(tempfile.mkdtemp(prefix="procler-pm2-app-"))
    (folder / "listen.py").write_text(LISTEN)
    return folder / "listen.py"


if __name__ == "__main__":
    graceful_stop()
    kill_9()
    start_answer()
    crash_restart()
    results.write()
