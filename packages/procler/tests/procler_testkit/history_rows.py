"""What tests compare of `history` answers: the rows as tuples, their order."""

from __future__ import annotations

from typing import Any


def moves(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(r["run"], r["from"], r["to"], r["reason"]) for r in rows]


def exits(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(r["run"], r["exit_code"], r["signal"], r["reason"]) for r in rows]


def newest_first(stamps: list[str]) -> bool:
    return stamps == sorted(stamps, reverse=True) and all(s.endswith("Z") for s in stamps)
