"""`procler run NAME -- CMD...`: define a runtime process and start it, like `pm2 start`.

Define-and-start is atomic: when the start fails, the definition is put back as it was
(removed, or the one --force replaced), unless --keep asks to keep it.
"""

from __future__ import annotations

import shlex
from typing import Any

from agentcli.commands import Command, Raw
from agentcli.errors import AgentError, UsageError


def run(values: dict[str, Any], command: Command) -> Any:
    from procler import client
    from procler.commands import APP
    from procler.config import handlers

    argv = values.pop("cmd") or []
    keep = values.pop("keep", False)
    if not (argv or values.get("image") or values.get("container")):
        raise UsageError(
            "run needs the command after --",
            suggestion="e.g. `procler run web -- python -m http.server`",
        )
    before = handlers.definition_of(values)
    defined = handlers.define({**values, "command": shlex.join(argv) if argv else None}, command)
    start = APP.command("restart" if defined["changed"] and values["force"] else "start")
    try:
        answer = client.forward(
            {"name": values["name"], "config": values.get("config"), "timeout": 60.0}, start
        )
    except AgentError:
        if defined["changed"] and not keep:
            handlers.put_back(values, before, command)
        raise
    if isinstance(answer, Raw) and answer.exit_code != 0 and defined["changed"] and not keep:
        handlers.put_back(values, before, command)
    return answer
