"""What changed between two configs: a canonical hash of every process's definition.

The hash is taken generically over the whole typed spec (every field of ProcessSpec, and
of every dataclass inside it, as `config show` writes them), so a field added to the
model counts without anyone listing it here. The diff names the top-level fields that
differ. Dependencies on a process with replicas count as the config writes them (one
entry for the process, not one per instance): scaling it changes no dependent.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from procler.config.model import ProcessSpec
from procler.config.replicas import fold_dependencies
from procler.config.serialize import to_json


def as_written(spec: ProcessSpec) -> ProcessSpec:
    """The spec with its dependencies on instances folded back to their process."""
    deps = spec.depends_on
    if not isinstance(deps, tuple) or not any(d.replica_of for d in deps):
        return spec
    return dataclasses.replace(spec, depends_on=fold_dependencies(spec.depends_on))


def spec_hash(spec: ProcessSpec) -> str:
    """sha256 of the spec's JSON (serialize.to_json: every field, env as a mapping) with
    sorted keys: equal definitions give equal hashes."""
    text = json.dumps(to_json(as_written(spec)), sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def changed_fields(old: ProcessSpec, new: ProcessSpec) -> list[str]:
    """The top-level fields whose canonical values differ, in the model's order."""
    old, new = as_written(old), as_written(new)
    return [
        f.name
        for f in dataclasses.fields(ProcessSpec)
        if to_json(getattr(old, f.name), f.name) != to_json(getattr(new, f.name), f.name)
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
