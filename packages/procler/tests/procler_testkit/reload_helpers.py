"""What the reload tests share: a sleeping process's args, the config file `supervise`
(in_process) writes, the pid of every runtime, and test_reload's config (db, api on db,
worker; gone and extra to remove and add)."""

from __future__ import annotations

from pathlib import Path

from procler_testkit.harness import PY
from procler_testkit.in_process import Commands


def sleeper(seconds: int) -> str:
    return f'[{PY}, -c, "import time; time.sleep({seconds})"]'


def config_file(tmp_path: Path) -> Path:
    """The config of the project `supervise(tmp_path, ...)` runs: rewrite it to reload."""
    return tmp_path / "proj" / ".procler" / "config.yaml"


def pids(handlers: Commands) -> dict[str, int | None]:
    return {name: rt.proc.pid if rt.proc else None for name, rt in handlers.sup.runtimes.items()}


def config(api: int = 600, db: int = 601, extra: bool = False, gone: bool = True) -> str:
    text = f"""version: 1
processes:
  db:
    args: {sleeper(db)}
  api:
    args: {sleeper(api)}
    depends_on: [db]
  worker:
    args: {sleeper(602)}
    env: {{MODE: fast}}
"""
    if gone:
        text += f"  gone:\n    args: {sleeper(603)}\n"
    if extra:
        text += f"  extra:\n    args: {sleeper(604)}\n"
    return text
