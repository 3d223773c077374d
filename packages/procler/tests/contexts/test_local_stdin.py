"""A local run's stdin kept open (`stdin: true`): writes go through the pipe, woken when it
has room; a process that does not read gets TIMEOUT saying how much went in."""

from __future__ import annotations

import asyncio
import fcntl
import os
import sys

import pytest

from procler.contexts.local import LocalContext
from procler.errors import StdinClosed, Timeout

DEAF = [sys.executable, "-c", "import time; time.sleep(600)"]
ECHO = [sys.executable, "-c", "import sys; sys.stdout.write(sys.stdin.readline())"]


def test_a_process_that_does_not_read_times_out_with_what_was_written() -> None:
    async def scenario() -> None:
        ctx = LocalContext()
        proc = ctx.spawn(DEAF, ".", dict(os.environ), "deaf", stdin=True)
        try:
            assert proc.popen.stdin is not None
            room = fcntl.fcntl(proc.popen.stdin.fileno(), fcntl.F_GETPIPE_SZ)
            with pytest.raises(Timeout) as caught:
                await proc.send(b"x" * (room + 10), 0.2)
            assert caught.value.data == {"bytes": room}
        finally:
            os.killpg(proc.popen.pid, 9)
            await proc.wait()
            _ = [item async for item in proc.output()]  # its pipes read to the end, closed
        with pytest.raises(StdinClosed):  # its run ended: the pipe is closed
            await proc.send(b"late\n", 0.2)

    asyncio.run(scenario())


def test_what_is_sent_is_read() -> None:
    async def scenario() -> None:
        ctx = LocalContext()
        proc = ctx.spawn(ECHO, ".", dict(os.environ), "echo", stdin=True)
        assert await proc.send(b"over the pipe\n", 5.0) == 14
        assert (await proc.wait()).code == 0
        lines = [item async for item in proc.output()]
        assert [t for batch in lines for t in getattr(batch, "texts", [])] == ["over the pipe"]

    asyncio.run(scenario())


def test_without_stdin_the_run_reads_dev_null() -> None:
    async def scenario() -> None:
        proc = LocalContext().spawn(ECHO, ".", dict(os.environ), "null")
        with pytest.raises(StdinClosed):
            await proc.send(b"x\n", 0.2)
        assert (await proc.wait()).code == 0
        assert [item async for item in proc.output()] == []  # /dev/null: nothing read

    asyncio.run(scenario())
