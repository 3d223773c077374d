"""`procler logs`: query the log store directly from the CLI process (no supervisor round trip).

The store's files are the source of truth, so logs stay readable when the supervisor is
down, after it crashed, and for a process that died.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path
from typing import Any

from agentcli.commands import Command, Stream
from agentcli.errors import UsageError
from procler import project
from procler.errors import ConfigInvalid, GroupNotFound
from procler.selection import unknown_process


def _known_runs(state: str) -> dict[str, int]:
    """Each process's latest run number as the supervisor recorded it."""
    path = os.path.join(state, "state.db")
    if not os.path.exists(path):
        return {}
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
    try:
        return {name: runs for name, runs in db.execute("SELECT name, runs FROM process")}
    except sqlite3.OperationalError:
        return {}
    finally:
        db.close()


def _names(values: dict[str, Any], config_path: str, logs: Path) -> tuple[list[str], Any]:
    """The processes to read, and the config's warning when its file is invalid.

    Logs never need a valid config: without even a last valid one, the names are those
    with stored output (a group cannot be resolved then)."""
    from agentcli.parser import did_you_mean
    from procler.config.last_valid import load

    try:
        cfg, warning = load(config_path)
        known, groups = list(cfg.processes), cfg.groups
    except ConfigInvalid as exc:
        if values.get("group"):
            raise
        warning = {"message": exc.message, "errors": exc.data["errors"]}
        known = sorted(p.name for p in logs.iterdir() if p.is_dir()) if logs.is_dir() else []
        groups = {}
    if values.get("group"):
        group = groups.get(values["group"])
        if group is None:
            hint = did_you_mean(values["group"], sorted(groups))
            raise GroupNotFound(f"no group named {values['group']!r}", suggestion=hint or None)
        return list(group.processes), warning
    if values.get("all"):
        return known, warning
    name = values.get("name")
    if not name:
        raise UsageError(
            "name a process, or pass --all or --group", suggestion="e.g. `procler logs api`"
        )
    if name not in known and not (logs / name).is_dir():
        raise unknown_process(name, known)
    return [name], warning


def show(values: dict[str, Any], command: Command) -> Any:
    from procler.logs.options import check_stream, compile_grep, parse_run, parse_since
    from procler.logs.query import follow, query

    config_path = project.find_config(os.getcwd(), values.get("config"))
    state = project.state_dir(project.project_root(config_path))
    logs = Path(state) / "logs"
    runs = _known_runs(state)
    names, warning = _names(values, config_path, logs)
    now = time.time()
    check_stream(values.get("stream"))
    options: dict[str, Any] = {
        "tail": values["tail"],
        "since": parse_since(values["since"], now) if values.get("since") else None,
        "until": parse_since(values["until"], now) if values.get("until") else None,
        "stream": values.get("stream"),
        "grep": compile_grep(values["grep"]) if values.get("grep") else None,
        "run": parse_run(values["run"]),
        "current_run": {n: runs[n] for n in names if n in runs} or None,
    }
    target: str | list[str] = (
        names if len(names) > 1 or values.get("all") or values.get("group") else names[0]
    )
    if values.get("follow"):
        # Ctrl-C ends the stream with exit 130 and a closed pipe with 0 (agentcli.main);
        # stdout stays valid NDJSON either way.
        return Stream(follow(logs, target, timeout=values["timeout"], **options))
    result = query(logs, target, **options)
    found = {"processes": names, "lines": result.lines, "truncated": result.truncated}
    return {**found, "config_warning": warning} if warning else found
