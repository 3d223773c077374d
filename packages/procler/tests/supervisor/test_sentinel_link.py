"""What the supervisor writes to its sentinel, and when: a new run at once, the ends of
runs a moment later, together (a real sentinel reads them)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import IO

import pytest

from procler.supervisor.sentinel_link import SentinelLink


class Recorded:
    """The sentinel's stdin, each write kept."""

    def __init__(self, pipe: IO[bytes]) -> None:
        self.pipe = pipe
        self.writes: list[bytes] = []

    def write(self, data: bytes) -> int:
        self.writes.append(data)
        return self.pipe.write(data)

    def flush(self) -> None:
        self.pipe.flush()

    def close(self) -> None:
        self.pipe.close()


def test_a_run_is_told_at_once_and_ends_a_moment_later_together(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    link = SentinelLink(str(tmp_path))
    assert link._proc.stdin is not None
    recorded = Recorded(link._proc.stdin)
    monkeypatch.setattr(link._proc, "stdin", recorded)

    async def scenario() -> None:
        link.tell("-a")
        link.tell("-b")
        assert recorded.writes == []
        link.tell("+c")  # no group: the sweep would only look for its environment marker
        assert recorded.writes == [b"-a\n-b\n+c\n"]
        link.tell("-c")
        deadline = time.monotonic() + 10.0
        while len(recorded.writes) < 2 and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        assert recorded.writes == [b"-a\n-b\n+c\n", b"-c\n"]
        link.tell("-d")
        await link.close()  # what is pending goes before the EOF
        assert recorded.writes == [b"-a\n-b\n+c\n", b"-c\n", b"-d\n"]
        assert link._proc.returncode == 0

    asyncio.run(scenario())
