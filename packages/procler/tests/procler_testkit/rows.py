"""Answers cut down to the fields a test compares: rows of processes, history's moves and
exits, as tuples that an exact assertion can read."""

from __future__ import annotations

from typing import Any


def rows_of(answer: dict[str, Any], *keys: str) -> list[tuple[Any, ...]]:
    """(name, *keys) of each row of an answer's `processes`."""
    return [tuple(row.get(k) for k in ("name", *keys)) for row in answer["processes"]]


def moves(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """History's transitions or health moves: (run, from, to, reason)."""
    return [(r["run"], r["from"], r["to"], r["reason"]) for r in rows]


def exits(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """History's exits: (run, exit_code, signal, reason)."""
    return [(r["run"], r["exit_code"], r["signal"], r["reason"]) for r in rows]


def newest_first(stamps: list[str]) -> bool:
    """ISO UTC stamps, newest first."""
    return stamps == sorted(stamps, reverse=True) and all(s.endswith("Z") for s in stamps)
