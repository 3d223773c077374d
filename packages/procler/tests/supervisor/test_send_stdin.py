"""`send` in process, over the fakes: the bytes a text makes (newline or not, UTF-8), the
run they go to, and the refusals that say what to do. A real pipe, a process that closed
its stdin, REST and MCP are in the real-process tier."""

from __future__ import annotations

from pathlib import Path

from procler_testkit.in_process import Faked, faked
from procler_testkit.scripted import ScriptedContext, StdinProcess, refusal

from procler.supervisor.operations import MAX_SEND

CONFIG = """version: 1
processes:
  reader: {command: ./read, stdin: true}
  deaf: {command: ./serve}
"""


def test_send_writes_to_stdin_of_the_current_run(tmp_path: Path) -> None:
    async def scenario(f: Faked) -> None:
        await f.commands.start({"name": "reader"})
        assert await f.commands.send({"name": "reader", "text": "hello"}) == {
            "name": "reader",
            "bytes": 6,
            "run": 1,
        }
        sent = [
            await f.commands.send({"name": "reader", "text": "ab", "no_newline": True}),
            await f.commands.send({"name": "reader", "text": "c"}),
            await f.commands.send({"name": "reader", "text": "héllo"}),
        ]
        assert [s["bytes"] for s in sent] == [2, 2, 7]
        [run] = f.context.started
        assert isinstance(run, StdinProcess)
        assert run.sent == [b"hello\n", b"ab", b"c\n", "héllo\n".encode()]
        await f.commands.restart({"name": "reader"})
        assert (await f.commands.send({"name": "reader", "text": "again"}))["run"] == 2
        assert f.statuses()["reader"] == "running"

    faked(tmp_path, CONFIG, scenario, ScriptedContext())


def test_send_refusals_say_what_to_do(tmp_path: Path) -> None:
    async def scenario(f: Faked) -> None:
        await f.commands.start({"name": "deaf"})
        err = await refusal(f.commands.send({"name": "deaf", "text": "y"}))
        assert (err.code, err.exit_code, err.message, err.suggestion) == (
            "STDIN_CLOSED",
            2,
            "deaf does not keep its stdin open",
            "add `stdin: true` to processes.deaf in the config, then `procler restart deaf`",
        )
        err = await refusal(f.commands.send({"name": "reader", "text": "y"}))  # not started
        assert (err.code, err.exit_code, err.message) == (
            "NOT_RUNNING",
            1,
            "reader is stopped: no run to send to",
        )
        await f.commands.start({"name": "reader"})
        err = await refusal(f.commands.send({"name": "reader", "text": "x" * MAX_SEND}))
        assert (err.code, err.exit_code, err.message) == (
            "USAGE",
            2,
            f"{MAX_SEND + 1} bytes to send: at most {MAX_SEND} at a time",
        )
        reader = f.context.started[-1]
        assert isinstance(reader, StdinProcess)
        assert (reader.sent, f.statuses()) == ([], {"reader": "running", "deaf": "running"})

    faked(tmp_path, CONFIG, scenario, ScriptedContext())
