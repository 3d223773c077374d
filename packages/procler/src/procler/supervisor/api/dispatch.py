"""Where a declared command asked over the TCP listener (REST, `serve --mcp`) runs.

The supervisor's own commands run in process, from its command table (the unix socket's
app, so the same answer with the same exit code). `capabilities` comes from the
declarations. A command the CLI runs itself (logs, config explain, define ...) runs as the
CLI runs it, in a child process (`python -m procler.surfaces.local_call`): its handler is
the CLI's, which the supervisor never imports.
"""

from __future__ import annotations

import asyncio
import json
import logging
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

from agentcli.commands import Command, capabilities
from agentcli.main import answer, failure
from procler.errors import Timeout
from procler.project import project_root
from procler.supervisor.api.command_routes import Api, Outcome
from procler.supervisor.api.json_bytes import encode
from procler.wire import reply_bound

log = logging.getLogger("procler.api")
LOCAL_CALL = "procler.surfaces.local_call"


LOCAL_CALLS = 4  # commands run in child processes at once; the others wait their turn


@dataclass(frozen=True)
class Reply:
    """A child process's answer, as it wrote it: the envelope's JSON, not parsed."""

    body: bytes
    code: int
    error_code: str


class Dispatch:
    # A child's answer (a page of logs: up to MAX_ANSWER_BYTES) is held in memory until
    # sent, so at most LOCAL_CALLS of them at once, whichever surface asked: 16 reads of
    # the largest page at once took the supervisor from 78 MB to 390 MB.
    _slots: asyncio.Semaphore | None = None

    def __init__(self, api: Api) -> None:
        self.api = api

    async def run(self, cmd: Command, values: dict[str, Any], argv: list[str]) -> Outcome:
        """The envelope and exit code of a command parsed from argv (values, without the
        global options)."""
        if cmd.name == "capabilities":
            return answer(capabilities(self.api.app))
        if cmd.name in self.api.handlers:
            return await self.api.run(cmd.name, values)
        async with self.slot():
            reply = await self.local(cmd, argv, reply_bound(values))
            return json.loads(reply.body), reply.code

    def runs_here(self, cmd: Command) -> bool:
        """Whether the supervisor answers cmd itself (else a child process does)."""
        return cmd.name == "capabilities" or cmd.name in self.api.handlers

    @staticmethod
    def slot() -> asyncio.Semaphore:
        """One of LOCAL_CALLS turns, held while a child's answer is in memory."""
        if Dispatch._slots is None:
            Dispatch._slots = asyncio.Semaphore(LOCAL_CALLS)
        return Dispatch._slots

    async def local(self, cmd: Command, argv: list[str], bound: float) -> Reply:
        """A command the CLI runs, on this supervisor's config, in a child process; its
        answer as the child wrote it (take a slot() first)."""
        config = self.api.config_path
        request = json.dumps([f"--config={config}", *argv]).encode()
        try:
            done = await asyncio.to_thread(
                subprocess.run,
                [sys.executable, "-m", LOCAL_CALL],
                input=request,
                stdout=subprocess.PIPE,
                cwd=project_root(config),
                timeout=bound,
                check=False,
            )
            head, _, body = done.stdout.partition(b"\n")
            told = json.loads(head)
            return Reply(body.rstrip(b"\n"), int(told["exit_code"]), told["error_code"] or "")
        except subprocess.TimeoutExpired:
            return _reply(failure(Timeout(f"`{cmd.name}` did not answer within {bound:g}s")))
        except (OSError, ValueError, KeyError, TypeError) as exc:  # no answer: a bug
            log.exception("%s: no answer from its child process", cmd.name)
            return _reply(failure(exc))


def _reply(outcome: Outcome) -> Reply:
    env, code = outcome
    return Reply(encode(env), code, str(env.get("error_code", "")))
