"""`procler history NAME`: what happened to a process, from the state database's event
table (procler.supervisor.state_store), so it reads the same with or without a supervisor.

Three lists, each newest first and each at most --limit long, so a crash loop's many
transitions never push the health moves or the exits out of the answer:
`exits` (every value its last_exit took: how each run ended, or that a start failed),
`health` (the moves of its runs' health verdicts) and `transitions` (its status changes
and notes, from == to, such as "ready line logged").
"""

from __future__ import annotations

from typing import Any

from agentcli.errors import UsageError
from procler.config.model import ProjectConfig
from procler.selection import instances
from procler.supervisor.clock import iso
from procler.supervisor.state_store import StateStore

DEFAULT_LIMIT = 10
MOST = 1000  # the longest list one answer carries


def checked_limit(values: dict[str, Any]) -> int:
    given = values.get("limit")
    limit = DEFAULT_LIMIT if given is None else int(given)
    if not 1 <= limit <= MOST:
        raise UsageError(
            f"--limit must be between 1 and {MOST}, got {limit}",
            suggestion=f"e.g. --limit {DEFAULT_LIMIT}",
        )
    return limit


def _exits(store: StateStore, name: str, limit: int) -> list[dict[str, Any]]:
    return [
        {
            "run": run,
            "started_at": iso(started),
            "ended_at": iso(ts),
            "duration_seconds": None if started is None else round(ts - started, 3),
            "exit_code": code,
            "signal": signal,
            "reason": reason,
        }
        for ts, run, _src, _dst, reason, code, signal, started in store.newest_events(
            name, "exit", limit
        )
    ]


def _moves(store: StateStore, name: str, kind: str, limit: int) -> list[dict[str, Any]]:
    return [
        {"at": iso(row[0]), "run": row[1], "from": row[2], "to": row[3], "reason": row[4]}
        for row in store.newest_events(name, kind, limit)
    ]


def history(store: StateStore | None, name: str, limit: int) -> dict[str, Any]:
    """One process's history (store None: nothing of the project ever ran)."""
    if store is None:
        return {"name": name, "exits": [], "health": [], "transitions": []}
    return {
        "name": name,
        "exits": _exits(store, name, limit),
        "health": _moves(store, name, "health", limit),
        "transitions": _moves(store, name, "status", limit),
    }


def history_named(
    config: ProjectConfig, store: StateStore | None, name: str, limit: int
) -> dict[str, Any]:
    """The history of a process, or of each instance of a process with replicas."""
    names = instances(config, name)
    if names == [name]:
        return history(store, name, limit)
    return {"name": name, "instances": [history(store, n, limit) for n in names]}
