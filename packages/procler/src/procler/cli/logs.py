"""The handler of `procler logs`, which queries the log store directly from the CLI
process (no supervisor round trip).

The store's files are the source of truth, so logs stay readable when the supervisor is
down, after it crashed, and for a process that died.
"""

import os

from agentcli.commands import Command
from agentcli.errors import UsageError
from procler import project
from procler.errors import (
    ConfigInvalid,
    GroupNotFound,
    ProcessNotFound,
    RecipeNotFound,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any


def _known_runs(state: "str") -> "tuple[dict[str, int], dict[str, int]]":
    """Each process's latest run number as the supervisor recorded it, and its newest run
    that ended badly (from its status: the last recorded transition)."""
    import sqlite3

    from procler import states

    path = os.path.join(state, "state.db")
    if not os.path.exists(path):
        return {}, {}
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
    try:
        rows = db.execute(
            "SELECT p.name, p.runs, p.restarts, (SELECT dst FROM event e WHERE e.name = p.name"
            " ORDER BY e.rowid DESC LIMIT 1) FROM process p"
        ).fetchall()
    except sqlite3.OperationalError:
        return {}, {}
    finally:
        db.close()
    crashed = {
        n: c
        for n, runs, restarts, status in rows
        if (c := states.crashed_run(status, runs, restarts))
    }
    return {name: runs for name, runs, _, _ in rows}, crashed


def _names(values: "dict[str, Any]", config_path: "str", logs: "Path") -> "tuple[list[str], Any]":
    """The processes to read, and the config's warning when its file is invalid.

    Logs never need a valid config: without even a last valid one, the names are those
    with stored output (a group cannot be resolved then)."""
    from procler.config.last_valid import load
    from procler.logs.store import is_folder_name

    try:
        cfg, warning = load(config_path)
        known, groups, recipes = list(cfg.processes), cfg.groups, list(cfg.recipes)
        sets = cfg.replica_sets
    except ConfigInvalid as exc:
        if values.get("group") or values.get("recipe"):
            raise
        warning = {"message": exc.message, "errors": exc.data["errors"]}
        known = sorted(p.name for p in logs.iterdir() if p.is_dir()) if logs.is_dir() else []
        groups, recipes, sets = {}, [], {}
    if values.get("recipe"):
        if values["recipe"] not in recipes:
            raise RecipeNotFound.among(values["recipe"], recipes)
        return [project.recipe_log_name(values["recipe"])], warning
    if values.get("group"):
        group = groups.get(values["group"])
        if group is None:
            raise GroupNotFound.among(values["group"], groups)
        return [n for m in group.processes for n in _instances(m, sets)], warning
    if values.get("all"):
        return known, warning
    name = values.get("name")
    if not name:
        raise UsageError(
            "name a process, or pass --all or --group", suggestion="e.g. `procler logs api`"
        )
    if name in sets:  # a process with replicas: all of its instances, interleaved
        return list(sets[name].instances), warning
    if name not in known and not (is_folder_name(name) and (logs / name).is_dir()):
        raise ProcessNotFound.among(name, known)  # `..` or a 300-character name too
    return [name], warning


def _instances(name: "str", sets: "dict[str, Any]") -> "list[str]":
    return list(sets[name].instances) if name in sets else [name]


def show(values: "dict[str, Any]", command: "Command") -> "Any":
    import time
    from pathlib import Path

    from agentcli.commands import Stream
    from procler.logs.options import check_stream, compile_grep, parse_run, parse_since
    from procler.logs.query import follow, query
    from procler.logs.scan import cursor_text, parse_cursor

    config_path = project.find_config(os.getcwd(), values.get("config"))
    state = project.state_dir(project.project_root(config_path))
    logs = Path(state) / "logs"
    runs, crashed = _known_runs(state)
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
        "crashed": crashed,
        "after": parse_cursor(values["after"]) if values.get("after") else None,
    }
    together = values.get("all") or values.get("group") or len(names) > 1
    target: str | list[str] = names if together or names[0] != values.get("name") else names[0]
    if values.get("follow"):
        # Ctrl-C ends the stream with exit 130 and a closed pipe with 0 (agentcli.main);
        # stdout stays valid NDJSON either way.
        return Stream(follow(logs, target, timeout=values["timeout"], **options))
    result = query(logs, target, **options)
    found = {
        "processes": names,
        "lines": result.lines,
        "truncated": result.truncated,
        "more": result.more,
        "cursor": cursor_text(result.cursor),
    }
    return {**found, "config_warning": warning} if warning else found
