"""Status rows start from a per-spec row made once: a new spec (a reload) gets its own."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from procler.config.load import check_config
from procler.supervisor import status

CONFIG = """
processes:
  api:
    command: sleep 60
    tags: [web]
"""
SAVED = {"desired": "running", "runs": 2, "restarts": 1, "last_exit": {"code": 3}}


def test_rows_of_one_spec_and_of_the_spec_after_a_reload(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(CONFIG)
    cfg, _ = check_config(str(path))
    assert cfg is not None
    spec = cfg.processes["api"]
    first = status.resting_status(spec, "stopped", SAVED)
    second = status.resting_status(spec, "running", {**SAVED, "last_exit": None})
    assert list(first) == list(second) == list(status._row_start(spec))  # one key order
    assert (first["name"], first["status"], first["run"], first["exit_code"]) == (
        "api",
        "stopped",
        2,
        3,
    )
    assert (second["status"], second["exit_code"], second["last_exit"]) == ("running", None, None)
    assert first["tags"] == ["web"] and first["tags"] is not second["tags"]
    reloaded = dataclasses.replace(spec, source="runtime", replica_of="apis")
    row = status.resting_status(reloaded, "stopped", SAVED)
    assert (row["source"], row["replica_of"]) == ("runtime", "apis")
    row = status.resting_status(spec, "stopped", SAVED)
    assert (row["source"], row["replica_of"]) == ("config", None)
