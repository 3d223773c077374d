"""The JSON files Procler keeps in .procler/state (runtime definitions, `procler scale`
counts, the `serve` settings): one reader, so a missing, unreadable or malformed file is
told apart the same way for each."""

from __future__ import annotations

import json
from typing import Any


class StateFileCorrupt(ValueError):
    """A state file cannot be read or does not hold what it should; the message says why."""


def read_state_json(path: str) -> dict[str, Any] | None:
    """The file's JSON object; None when there is no file."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise StateFileCorrupt(f"cannot read {path}: {exc}") from None
    if not isinstance(data, dict):
        raise StateFileCorrupt(f"{path} does not hold a JSON object")
    return data
