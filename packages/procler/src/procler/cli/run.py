"""`procler run NAME -- CMD...`: define a runtime process and start it, like `pm2 start`."""

from __future__ import annotations

import shlex
from typing import Any

from agentcli.commands import Command
from agentcli.errors import UsageError


def run(values: dict[str, Any], command: Command) -> Any:
    from procler.cli import client
    from procler.cli import config as handlers
    from procler.cli.processes import APP

    argv = values.pop("cmd") or []
    if not (argv or values.get("image") or values.get("container")):
        raise UsageError(
            "run needs the command after --",
            suggestion="e.g. `procler run web -- python -m http.server`",
        )
    defined = handlers.define({**values, "command": shlex.join(argv) if argv else None}, command)
    start = APP.command("restart" if defined["changed"] and values["force"] else "start")
    return client.forward(
        {"name": values["name"], "config": values.get("config"), "timeout": 60.0}, start
    )
