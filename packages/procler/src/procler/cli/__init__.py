"""Everything that runs in the CLI process: the handlers of the commands that run where
they are asked (config, logs, define ...), one module per family as the declarations
(procler.declarations), and `client`, which sends supervisor commands over the socket
(starting a supervisor). procler.entry comes first and runs `main` when no supervisor
answers.
"""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NoReturn


def main() -> "NoReturn":
    """The full CLI: parse and render only (see agentcli.main.run); procler.entry comes first."""
    from agentcli.main import main as run_main
    from procler.declarations import APP

    run_main(APP)
