"""Shared helpers: run a real child process and capture its pipes into a LogStore."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from procler_testkit.capture import CaptureChild

from procler.logs.capture import capture_stream
from procler.logs.store import LogStore


async def _capture(store: LogStore, process: str, run: int, code: str) -> int:
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        code,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert child.stdout is not None and child.stderr is not None
    await asyncio.gather(
        capture_stream(child.stdout, "stdout", store, process, run),
        capture_stream(child.stderr, "stderr", store, process, run),
    )
    return await child.wait()


@pytest.fixture
def capture_child() -> CaptureChild:
    """Run `python -c code`, store both pipes as `process` run `run`, flush; the exit code."""

    def run_child(store: LogStore, process: str, run: int, code: str) -> int:
        code_exit = asyncio.run(_capture(store, process, run, code))
        store.flush()
        return code_exit

    return run_child


@pytest.fixture
def logs_dir(tmp_path: Path) -> Path:
    return tmp_path / "logs"
