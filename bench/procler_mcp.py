"""`procler mcp` over stdio with a warm supervisor: time from spawn to an initialized
session, tools/list, and `procler_status` calls (median, p99), next to `procler status`
from the CLI for scale. No target: the figures are reported.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _results import Results
from _timing import tool
from mcp import Client, StdioServerParameters

CALLS = int(sys.argv[1]) if len(sys.argv) > 1 else 200


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


async def session(work: Path) -> tuple[float, float, list[float]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROCLER_")}
    server = StdioServerParameters(command=tool("procler"), args=["mcp"], cwd=work, env=env)
    t0 = time.perf_counter()
    async with Client(server, read_timeout_seconds=60) as client:
        ready = time.perf_counter() - t0
        t1 = time.perf_counter()
        await client.list_tools()
        listed = time.perf_counter() - t1
        calls = []
        for _ in range(CALLS):
            t2 = time.perf_counter()
            await client.call_tool("procler_status", {})
            calls.append(time.perf_counter() - t2)
    return ready, listed, calls


def main() -> None:
    results = Results(
        f"`procler mcp` over stdio, warm supervisor, 3 processes: {CALLS} `procler_status` calls"
    )
    work = Path(tempfile.mkdtemp(prefix="procler-mcp-bench-"))
    (work / ".procler").mkdir()
    sleep = f"[{sys.executable}, -c, 'import time; time.sleep(3600)']"
    (work / ".procler" / "config.yaml").write_text(
        "version: 1\nprocesses:\n" + "".join(f"  p{i}:\n    args: {sleep}\n" for i in range(3))
    )
    procler = tool("procler")
    try:
        subprocess.run([procler, "up"], cwd=work, capture_output=True, check=True)
        ready, listed, calls = asyncio.run(session(work))
        cli = []
        for _ in range(30):
            t0 = time.perf_counter()
            subprocess.run([procler, "status"], cwd=work, capture_output=True, check=True)
            cli.append(time.perf_counter() - t0)
    finally:
        subprocess.run([procler, "daemon", "stop"], cwd=work, capture_output=True, check=False)
    calls.sort()
    print(f"spawn to initialized session: {ms(ready)}")
    print(f"tools/list: {ms(listed)}")
    print(
        f"procler_status x{CALLS}: median {ms(statistics.median(calls))}, "
        f"p99 {ms(calls[int(len(calls) * 0.99) - 1])}"
    )
    print(f"CLI `procler status` x30 (whole process): median {ms(statistics.median(cli))}")
    results.ours("spawn to initialized session", ready * 1000, "ms")
    results.ours("tools/list", listed * 1000, "ms")
    results.ours("procler_status median", statistics.median(calls) * 1000, "ms")
    results.ours("procler_status p99", calls[int(len(calls) * 0.99) - 1] * 1000, "ms")
    results.ours("CLI procler status median", statistics.median(cli) * 1000, "ms")
    results.write()


if __name__ == "__main__":
    main()
