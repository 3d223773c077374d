"""One-off runs through the real local context: output, exit codes, caps, timeouts."""

from __future__ import annotations

import asyncio
import os
import shlex
import sys
from pathlib import Path

from procler.config.model import ProcessSpec
from procler.contexts.local import LocalContext
from procler.supervisor.oneshot import OneShotResult, run_once


def _run(tmp_path: Path, code: str, timeout: float = 10.0, cap: int = 1000) -> OneShotResult:
    command = f"{shlex.quote(sys.executable)} -c {shlex.quote(code)}"
    spec = ProcessSpec(name="exec", command=command, cwd=str(tmp_path))
    return asyncio.run(run_once(LocalContext(), spec, dict(os.environ), timeout, cap=cap))


def test_output_and_exit_code_are_answered(tmp_path: Path) -> None:
    result = _run(tmp_path, "import sys; print('out'); print('err', file=sys.stderr); sys.exit(3)")
    assert (result.exit_code, result.signal, result.stdout, result.stderr) == (
        3,
        None,
        "out\n",
        "err\n",
    )
    assert (result.truncated, result.timed_out, result.ok) == (False, False, False)


def test_output_past_the_cap_is_cut_and_flagged(tmp_path: Path) -> None:
    result = _run(tmp_path, "print('x' * 5000)", cap=100)
    assert (result.exit_code, result.stdout, result.truncated, result.ok) == (
        0,
        "x" * 100,
        True,
        True,
    )


def test_a_run_past_its_timeout_is_stopped_with_what_it_started(tmp_path: Path) -> None:
    marker = tmp_path / "child.pid"
    code = (
        "import subprocess, sys, time; "
        f"p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']); "
        f"open({str(marker)!r}, 'w').write(str(p.pid)); print('started', flush=True); time.sleep(60)"
    )
    result = _run(tmp_path, code, timeout=1.0)
    child = int(marker.read_text())
    assert (result.timed_out, result.signal, result.stdout, result.ok) == (
        True,
        15,
        "started\n",
        False,
    )
    assert (
        not Path(f"/proc/{child}").exists()
        or "Z" in Path(f"/proc/{child}/stat").read_text().split()[2]
    )
