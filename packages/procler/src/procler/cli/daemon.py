"""`procler daemon logs`: the tail of the supervisor's own log file, read without a supervisor."""

from __future__ import annotations

import os
from collections import deque
from typing import Any

from agentcli.commands import Command
from procler import project


def show(values: dict[str, Any], command: Command) -> Any:
    config_path = project.find_config(os.getcwd(), values.get("config"))
    path = os.path.join(project.state_dir(project.project_root(config_path)), "supervisor.log")
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            lines = list(deque((line.rstrip("\n") for line in fh), maxlen=max(0, values["tail"])))
    except FileNotFoundError:
        lines = []
    return {"path": path, "lines": lines}
