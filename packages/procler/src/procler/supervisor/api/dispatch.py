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
from typing import Any

from agentcli.commands import Command, capabilities
from agentcli.main import answer, failure
from procler.errors import Timeout
from procler.project import project_root
from procler.supervisor.api.command_routes import Api, Outcome
from procler.wire import reply_bound

log = logging.getLogger("procler.api")
LOCAL_CALL = "procler.surfaces.local_call"


class Dispatch:
    def __init__(self, api: Api) -> None:
        self.api = api

    async def run(self, cmd: Command, values: dict[str, Any], argv: list[str]) -> Outcome:
        """The envelope and exit code of a command parsed from argv (values, without the
        global options)."""
        if cmd.name == "capabilities":
            return answer(capabilities(self.api.app))
        if cmd.name in self.api.handlers:
            return await self.api.run(cmd.name, values)
        return await self.local(cmd, argv, reply_bound(values))

    async def local(self, cmd: Command, argv: list[str], bound: float) -> Outcome:
        """A command the CLI runs, on this supervisor's config, in a child process."""
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
            reply = json.loads(done.stdout)
            return reply["envelope"], int(reply["exit_code"])
        except subprocess.TimeoutExpired:
            return failure(Timeout(f"`{cmd.name}` did not answer within {bound:g}s"))
        except (OSError, ValueError, KeyError, TypeError) as exc:  # no answer: a bug
            log.exception("%s: no answer from its child process", cmd.name)
            return failure(exc)
