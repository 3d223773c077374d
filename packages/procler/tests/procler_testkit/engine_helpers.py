"""Small helpers shared by the container tests: names, ports, what runs in a container."""

from __future__ import annotations

import socket
import uuid
from datetime import datetime
from typing import Any


def unique(prefix: str = "procler-t") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def commands_in(client: Any, container: str) -> list[str]:
    """The command line of every process running in the container, sorted (`top`). Docker
    answers columns, one of them CMD; Podman the lines of `ps` in one column (PID USER
    COMMAND). A zombie is not running: `ps` shows it with no command line, as `[name]` (an
    exec'd process ended under Podman waits there for the container's pid 1 to reap it)."""
    top = client.api.top(container)
    titles = top["Titles"]
    if "CMD" in titles:
        commands = [row[titles.index("CMD")] for row in top["Processes"]]
    else:
        column = titles[0].split().index("COMMAND")
        commands = [row[0].split(None, column)[column] for row in top["Processes"]]
    return sorted(c for c in commands if not (c.startswith("[") and c.endswith("]")))


def ts(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))
