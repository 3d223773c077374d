"""The handler of `procler run`: define a runtime process and start it, from the CLI
process (procler.declarations.processes declares the process commands).
"""

from agentcli.commands import Command
from agentcli.errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def run(values: "dict[str, Any]", command: "Command") -> "Any":
    """`procler run NAME -- CMD...`: define a runtime process and start it, like `pm2 start`.

    Define-and-start is atomic: when the start fails, the definition is put back as it was
    (removed, or the one --force replaced), unless --keep asks to keep it.
    """
    import shlex

    from agentcli.commands import Raw
    from agentcli.errors import AgentError
    from procler.cli import client
    from procler.cli.definitions import define, definition_of, put_back
    from procler.declarations.processes import PROCESS_COMMANDS

    argv = values.pop("cmd") or []
    keep = values.pop("keep", False)
    if not (argv or values.get("image") or values.get("container")):
        raise UsageError(
            "run needs the command after --",
            suggestion="e.g. `procler run web -- python -m http.server`",
        )
    before = definition_of(values)
    defined = define({**values, "command": shlex.join(argv) if argv else None}, command)
    then = "restart" if defined["changed"] and values["force"] else "start"
    start = next(c for c in PROCESS_COMMANDS if c.name == then)
    try:
        answer = client.forward(
            {"name": values["name"], "config": values.get("config"), "timeout": 60.0}, start
        )
    except AgentError:
        if defined["changed"] and not keep:
            put_back(values, before, command)
        raise
    if isinstance(answer, Raw) and answer.exit_code != 0 and defined["changed"] and not keep:
        put_back(values, before, command)
    return answer
