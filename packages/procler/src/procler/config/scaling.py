"""`procler scale` counts, kept beside the runtime definitions (.procler/state/replicas.json)
so every reader of the project (the supervisor, `list`, `logs`, answers from disk) sees the
same instances. Each entry remembers the count the config gave when it was scaled: once
the config gives another, the config's count wins (see procler.config.replicas)."""

from __future__ import annotations

import os
from typing import Any

from procler.config.findings import Finding, Findings
from procler.config.state_files import StateFileCorrupt, read_state_json, write_state_json
from procler.project import make_state_dir, state_dir

SCALE_FILE = "replicas.json"


def scale_path(root: str) -> str:
    return os.path.join(state_dir(root), SCALE_FILE)


def read_scale(root: str, findings: Findings) -> dict[str, Any]:
    """{process: {"declared": N, "count": M}}; {} when nothing was scaled. A damaged file is
    a finding on that file (every scale is lost until it is fixed or removed)."""
    path = scale_path(root)
    try:
        data = read_state_json(path)
    except StateFileCorrupt as exc:
        why, line, column = str(exc), exc.line, exc.column
    else:
        if data is None:
            return {}
        if isinstance(data.get("processes"), dict):
            return dict(data["processes"])
        why, line, column = "it has no `processes` object", 1, 1
    hint = f"delete {path} (it holds the `procler scale` counts), then scale again"
    findings.items.append(Finding(path, line, column, "", why, hint))
    return {}


def write_scale(root: str, counts: dict[str, Any]) -> None:
    """Replace the file at once: a reader never sees half of it."""
    make_state_dir(root)
    write_state_json(scale_path(root), {"version": 1, "processes": counts})
