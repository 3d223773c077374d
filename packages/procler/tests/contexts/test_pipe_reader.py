"""A pipe read from the event loop: lines in batches, reading stops at the queue's bound."""

from __future__ import annotations

import asyncio
import os

from procler.contexts.base import OutputBatch
from procler.contexts.pipe_reader import QUEUE_BOUND, PipeReader

TURNS = 1000  # bound on the loop turns a read may take to arrive


async def arrived(queue: asyncio.Queue[OutputBatch | None], size: int) -> int:
    for _ in range(TURNS):
        if queue.qsize() >= size:
            break
        await asyncio.sleep(0)
    return queue.qsize()


def test_reading_stops_at_the_bound_and_takes_up_what_waited_in_the_pipe() -> None:
    async def scenario() -> list[object]:
        read_end, write_end = os.pipe()
        pipe = os.fdopen(read_end, "rb", buffering=0)
        queue: asyncio.Queue[OutputBatch | None] = asyncio.Queue()
        reader = PipeReader(pipe, "stderr", queue)
        seen: list[object] = []
        for i in range(QUEUE_BOUND):  # one read each: the consumer takes none
            os.write(write_end, f"line {i}\n".encode())
            await arrived(queue, i + 1)
        for i in range(QUEUE_BOUND, QUEUE_BOUND + 44):  # left in the pipe
            os.write(write_end, f"line {i}\n".encode())
            for _ in range(3):
                await asyncio.sleep(0)
        seen.append(queue.qsize())
        first = queue.get_nowait()
        assert first is not None
        seen.append((first.stream, first.texts))
        for _ in range(QUEUE_BOUND - 1):
            queue.get_nowait()
        reader.resume()
        await arrived(queue, 1)
        rest = queue.get_nowait()
        assert rest is not None
        seen.append(rest.texts)
        os.write(write_end, b"no newline")
        os.close(write_end)
        await arrived(queue, 2)
        last = queue.get_nowait()
        assert last is not None
        seen += [last.texts, queue.get_nowait(), pipe.closed]
        return seen

    assert asyncio.run(scenario()) == [
        QUEUE_BOUND,
        ("stderr", ["line 0"]),
        [f"line {i}" for i in range(QUEUE_BOUND, QUEUE_BOUND + 44)],
        ["no newline"],
        None,
        True,
    ]
