"""What changed between two configs: a canonical hash of every process's definition.

The hash is taken generically over the whole typed spec (every field of ProcessSpec, and
of every dataclass inside it), so a field added to the model counts without anyone
listing it here. The diff names the top-level fields that differ.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

from procler.config.model import ProcessSpec


def canonical(value: Any) -> Any:
    """A JSON-ready form of a spec value: dataclasses by field name, sequences as lists,
    mappings with sorted keys; equal specs give equal forms."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: canonical(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [canonical(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): canonical(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, PurePath):
        return str(value)
    if isinstance(value, frozenset | set):
        return sorted(canonical(v) for v in value)
    return value


def spec_hash(spec: ProcessSpec) -> str:
    """sha256 of the spec's canonical JSON."""
    text = json.dumps(canonical(spec), sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def changed_fields(old: ProcessSpec, new: ProcessSpec) -> list[str]:
    """The top-level fields whose canonical values differ, in the model's order."""
    return [
        f.name
        for f in dataclasses.fields(ProcessSpec)
        if canonical(getattr(old, f.name)) != canonical(getattr(new, f.name))
    ]


@dataclass(frozen=True)
class ConfigDiff:
    added: tuple[str, ...] = ()
    changed: dict[str, list[str]] = field(default_factory=dict)  # name -> changed fields
    removed: tuple[str, ...] = ()
    unchanged: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "added": list(self.added),
            "changed": [{"name": n, "fields": f} for n, f in self.changed.items()],
            "removed": list(self.removed),
            "unchanged": list(self.unchanged),
        }


def diff(old: Mapping[str, ProcessSpec], new: Mapping[str, ProcessSpec]) -> ConfigDiff:
    """Processes added, changed (with the fields), removed and unchanged, in config order."""
    changed: dict[str, list[str]] = {}
    unchanged: list[str] = []
    for name, spec in new.items():
        if name in old:
            if spec_hash(old[name]) == spec_hash(spec):
                unchanged.append(name)
            else:
                changed[name] = changed_fields(old[name], spec)
    return ConfigDiff(
        added=tuple(n for n in new if n not in old),
        changed=changed,
        removed=tuple(n for n in old if n not in new),
        unchanged=tuple(unchanged),
    )
