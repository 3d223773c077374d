"""Small helpers shared by the docker tests: names, ports, what runs in a container."""

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
    """The command line of every process in the container, sorted (`docker top`)."""
    top = client.api.top(container)
    column = top["Titles"].index("CMD")
    return sorted(row[column] for row in top["Processes"])


def ts(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))
