"""The rules file as typed values, after the loader has checked it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class DatasetSpec:
    """Another file the rules refer to (masters, aggregates)."""

    name: str
    path: Path
    sheet: str | None = None
    encoding: str | None = None


@dataclass(frozen=True)
class MasterSpec:
    """Allowed values: inline, or a column of a dataset."""

    name: str
    values: tuple[str, ...] = ()
    dataset: str = ""
    column: str = ""


@dataclass(frozen=True)
class RuleSpec:
    """One rule; `params` holds the type's parameters, already checked and converted."""

    id: str
    type: str
    severity: str
    message: str
    suggestion: str
    description: str
    when: Any
    params: dict[str, Any]
    line: int
    each_field: bool = False  # one of the checks of a `fields:` list (the seed's spelling)


@dataclass
class RuleSet:
    """A whole rules file."""

    path: Path
    name: str
    version: int = 1
    fields: dict[str, str] = field(default_factory=dict)
    datasets: dict[str, DatasetSpec] = field(default_factory=dict)
    masters: dict[str, MasterSpec] = field(default_factory=dict)
    rules: list[RuleSpec] = field(default_factory=list)
    key: list[str] = field(default_factory=list)  # columns naming a record in findings
