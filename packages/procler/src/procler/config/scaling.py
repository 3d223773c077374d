"""`procler scale` counts, kept beside the runtime definitions (.procler/state/replicas.json)
so every reader of the project (the supervisor, `list`, `logs`, answers from disk) sees the
same instances. Each entry remembers the count the config gave when it was scaled: once
the config gives another, the config's count wins (see procler.config.replicas)."""

from __future__ import annotations

import json
import os
import tempfile
from typing import Any

from procler.config.findings import Finding, Findings
from procler.config.state_files import StateFileCorrupt, read_state_json
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
        why = str(exc)
    else:
        if data is None:
            return {}
        if isinstance(data.get("processes"), dict):
            return dict(data["processes"])
        why = "it has no `processes` object"
    hint = f"delete {path} (it holds the `procler scale` counts), then scale again"
    findings.items.append(Finding(path, 0, 0, "", why, hint))
    return {}


def write_scale(root: str, counts: dict[str, Any]) -> None:
    """Replace the file at once (temp file + rename): a reader never sees half of it."""
    make_state_dir(root)
    path = scale_path(root)
    fd, temp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".replicas-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump({"version": 1, "processes": counts}, handle, indent=2)
            handle.write("\n")
        os.replace(temp, path)
    except BaseException:
        os.unlink(temp)
        raise
