"""What the reload tests (test_reload, test_reload_replicas) share: a sleeping process's
args, the config file `supervise` (test_wait) writes, and the pid of every runtime."""

from __future__ import annotations

from pathlib import Path

from harness import PY
from in_process import Commands


def sleeper(seconds: int) -> str:
    return f'[{PY}, -c, "import time; time.sleep({seconds})"]'


def config_file(tmp_path: Path) -> Path:
    """The config of the project `supervise(tmp_path, ...)` runs: rewrite it to reload."""
    return tmp_path / "proj" / ".procler" / "config.yaml"


def pids(handlers: Commands) -> dict[str, int | None]:
    return {name: rt.proc.pid if rt.proc else None for name, rt in handlers.sup.runtimes.items()}
