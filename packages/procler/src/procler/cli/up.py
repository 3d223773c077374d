"""Handler of `procler up`: the supervisor starts the stack; with --attach the CLI then
follows it in the foreground until Ctrl-C (procler.foreground), with --tui it opens the
TUI on it. A supervisor answers a plain `up` from argv itself (procler.entry); these two
options are local (agentcli's Arg.local), so it leaves them to the CLI."""

from agentcli.errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from agentcli.commands import Command


def up(values: "dict[str, Any]", command: "Command") -> "Any":
    import os
    import sys

    from agentcli.commands import Raw, Stream
    from procler.cli.client import call, config_path_of

    attach, tui = values.pop("attach", False), values.pop("tui", False)
    if attach and tui:
        raise UsageError(
            "--attach and --tui both take the terminal", suggestion="choose one of them"
        )
    config_path = config_path_of(values)
    if tui:
        from procler.tui.key_bindings import load_keymap
        from procler.tui.run import need_terminal, show

        need_terminal("procler up --tui")  # before anything starts
        keymap = load_keymap(None)
    if not attach:
        code, payload = call(config_path, "up", values, autostart=True)
        if code != 0 or not tui:
            return Raw(payload.decode("utf-8"), code)
        return show(config_path, keymap)
    from procler.foreground.session import Session

    code, payload = call(
        config_path,
        "status",
        {"name": None, "tag": [], "namespace": values.get("namespace")},
        autostart=True,  # a supervisor must run to follow its event stream
    )
    if code != 0:
        return Raw(payload.decode("utf-8"), code)
    import json

    names = [row["name"] for row in json.loads(payload)["data"]["processes"]]
    colour = sys.stdout.isatty() and "NO_COLOR" not in os.environ
    session = Session(config_path, names, values.get("namespace"), colour)
    return Stream(iter(()), session.run(values))
