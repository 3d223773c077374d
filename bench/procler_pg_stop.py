"""Stopping a real PostgreSQL 15 with a client connected: how long `procler stop` takes
and whether the next start had to recover, three ways side by side in the same run:

- `stop_command: pg_ctl stop -m fast` (ours: the command a database is stopped with);
- the default, `stop_signal: TERM` (a smart shutdown: PostgreSQL waits for its clients,
  so the stop waits out `stop_timeout` and ends in SIGKILL);
- `stop_signal: INT` (PostgreSQL's fast shutdown by signal: the peers' best without a
  stop command).

A psql session holds a connection (its stdin kept open) during each stop. Each way runs
ROUNDS times on its own cluster, on a free loopback port, its data in a temporary folder.

    python bench/procler_pg_stop.py [ROUNDS]
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _results import Results
from _timing import ROOT, tool

sys.path.insert(0, str(ROOT / "packages" / "procler" / "tests"))
from procler_testkit.postgres import Cluster, cluster

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 3
STOP_TIMEOUT = 5.0
PROCLER = tool("procler")
WAYS: dict[str, Callable[[Cluster], dict[str, str]]] = {
    "stop_command": lambda pg: {"stop_command": pg.fast_stop()},
    "TERM": lambda pg: {},
    "INT": lambda pg: {"stop_signal": "INT"},
}


def procler(root: Path, *args: str) -> dict[str, Any]:
    done = subprocess.run(
        [PROCLER, *args], cwd=root, capture_output=True, text=True, timeout=120, check=False
    )
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def config(pg: Cluster, extra: dict[str, str]) -> str:
    keys = "".join(f"    {k}: {json.dumps(v)}\n" for k, v in extra.items())
    return (
        "version: 1\nprocesses:\n  pg:\n"
        f"    args: {json.dumps(pg.server())}\n"
        f"    healthcheck: {{exec: {json.dumps(pg.ready())}, interval: 200ms}}\n"
        f"    stop_timeout: {STOP_TIMEOUT:g}s\n{keys}"
    )


def one_way(way: str) -> tuple[list[float], int]:
    """Stop times and how many next starts recovered from a crash."""
    times, recovered = [], 0
    with cluster() as pg:
        root = Path(tempfile.mkdtemp(prefix="procler-pg-bench-"))
        try:
            (root / ".procler").mkdir()
            (root / ".procler" / "config.yaml").write_text(config(pg, WAYS[way](pg)))
            for round_ in range(ROUNDS + 1):
                procler(root, "start", "pg")
                procler(root, "wait", "pg", "--for", "healthy", "--timeout", "60s")
                if round_:
                    lines = procler(root, "logs", "pg", "--tail", "200")["data"]["lines"]
                    recovered += any("automatic recovery" in line["text"] for line in lines)
                    if round_ == ROUNDS:
                        break
                with pg.session() as client:
                    assert client.stdin is not None and client.stdout is not None
                    client.stdin.write("select 1;\n")
                    client.stdin.flush()
                    client.stdout.readline()
                    started = time.perf_counter()
                    procler(root, "stop", "pg")
                    times.append(time.perf_counter() - started)
                    client.kill()
        finally:
            procler(root, "daemon", "stop")
            shutil.rmtree(root, ignore_errors=True)
    return times, recovered


results = Results(f"procler stop of PostgreSQL 15 with a psql session open ({ROUNDS} rounds)")
median: dict[str, float] = {}
for way in WAYS:
    times, recovered = one_way(way)
    median[way] = statistics.median(times)
    unit_note = f"{recovered} of {ROUNDS} next starts recovered from a crash"
    if way == "stop_command":
        results.ours("stop with pg_ctl stop -m fast", median[way], "s", goal="< 1")
        results.ours("crash recoveries after it", recovered, "starts", goal="== 0")
    else:
        results.peer(f"stop by SIG{way} (stop_timeout {STOP_TIMEOUT:g}s)", median[way], "s")
        results.peer(f"crash recoveries after SIG{way}", recovered, "starts")
    results.note(f"{way}: {unit_note}; stop times {[round(t, 3) for t in times]}")
    print(f"{way}: median {median[way]:.3f}s; {unit_note}", file=sys.stderr)
results.ratio("pg_ctl stop / SIGTERM", median["stop_command"] / median["TERM"])
results.ratio("pg_ctl stop / SIGINT", median["stop_command"] / median["INT"])
results.write()
