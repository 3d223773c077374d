"""Reload of a 100-process config where one process changed: time from `procler reload`
to the change applied (the changed process restarted), and the 99 others' pids kept;
`reload --dry-run` first, which reads, checks and diffs the file and applies nothing.
Then the supervisor's idle CPU over a while with every process watching a folder
(nothing changing), against the same stack without `watch:`."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _results import Results
from _timing import tool

COUNT = 100
IDLE_SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 30.0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100.0


def config(changed: str, watch: bool) -> str:
    text = "version: 1\nprocesses:\n"
    for i in range(COUNT):
        seconds = changed if i == COUNT // 2 else "3600"
        text += f"  p{i}:\n    args: [sleep, '{seconds}']\n"
        if watch:
            text += f"    watch: {{paths: ['src/p{i}/**']}}\n"
    return text


def call(procler: str, work: Path, *args: str) -> dict[str, Any]:
    out = subprocess.run([procler, *args], cwd=work, capture_output=True, text=True)
    data: dict[str, Any] = json.loads(out.stdout)["data"]
    return data


def pids(procler: str, work: Path) -> dict[str, int]:
    rows = call(procler, work, "status")["processes"]
    return {row["name"]: row["pid"] for row in rows}


def run(watch: bool, results: Results) -> None:
    work = Path(tempfile.mkdtemp(prefix="procler-reload-"))
    (work / ".procler").mkdir()
    for i in range(COUNT):
        (work / "src" / f"p{i}").mkdir(parents=True)
    path = work / ".procler" / "config.yaml"
    path.write_text(config("3600", watch))
    procler = tool("procler")
    call(procler, work, "up")
    before = pids(procler, work)
    path.write_text(config("3599", watch))
    t0 = time.perf_counter()
    call(procler, work, "reload", "--dry-run")
    dry = time.perf_counter() - t0
    t0 = time.perf_counter()
    answer = call(procler, work, "reload")
    elapsed = time.perf_counter() - t0
    after = pids(procler, work)
    kept = sum(after[n] == before[n] for n in before)
    label = "with watch" if watch else "no watch"
    print(
        f"reload ({label}): --dry-run (read, check, diff) {dry * 1000:.0f} ms; "
        f"{answer['restarted']} restarted, applied in {elapsed * 1000:.0f} ms; "
        f"{kept}/{COUNT - 1} other pids unchanged"
    )
    results.ours(f"reload --dry-run, {label}", dry * 1000, "ms")
    results.ours(f"reload applied, {label}", elapsed * 1000, "ms")
    results.ours(
        f"other pids unchanged, {label}", kept, "", better="higher", goal=f"== {COUNT - 1}"
    )
    pid = call(procler, work, "daemon", "status")["pid"]
    assert isinstance(pid, int)
    used = cpu_seconds(pid)
    time.sleep(IDLE_SECONDS)
    used = cpu_seconds(pid) - used
    print(
        f"idle {IDLE_SECONDS:g} s ({label}): supervisor CPU {100 * used / IDLE_SECONDS:.2f}% of one core"
    )
    results.ours(f"idle CPU of one core, {label}", 100 * used / IDLE_SECONDS, "%")
    subprocess.run([procler, "daemon", "stop"], cwd=work, capture_output=True)
    subprocess.run(["rm", "-rf", str(work)])


if __name__ == "__main__":
    results = Results(
        f"reload of {COUNT} processes with one changed, then {IDLE_SECONDS:g} s idle; "
        "without and with `watch:`"
    )
    run(False, results)
    run(True, results)
    results.write()
