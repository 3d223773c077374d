"""The resolved model as JSON-ready data (what `config show`, `list` and `define` answer)."""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

from procler.config.model import ProcessSpec, ProjectConfig

# Fields held as (key, value) pairs in the model, shown as JSON objects.
_PAIR_FIELDS = {"env", "headers", "vars"}


def to_json(value: Any, name: str = "") -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name), f.name) for f in fields(value)}
    if isinstance(value, tuple) and name in _PAIR_FIELDS:
        return {k: v for k, v in value}
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, Path):
        return str(value)
    return value


def process_json(spec: ProcessSpec) -> dict[str, Any]:
    data: dict[str, Any] = to_json(spec)
    return data


def config_json(config: ProjectConfig) -> dict[str, Any]:
    data: dict[str, Any] = to_json(config)
    return data


def process_summary(spec: ProcessSpec) -> dict[str, Any]:
    """One line of `procler list`: what runs, where, and where it was defined."""
    return {
        "name": spec.name,
        "source": spec.source,
        "context": spec.context,
        "command": spec.command,
        "args": None if spec.args is None else list(spec.args),
        "cwd": spec.cwd,
        "description": spec.description,
        "tags": list(spec.tags),
        "depends_on": [d.name for d in spec.depends_on],
        "namespaces": list(spec.namespaces),
        **({"replica_of": spec.replica_of, "replica": spec.replica} if spec.replica_of else {}),
    }
