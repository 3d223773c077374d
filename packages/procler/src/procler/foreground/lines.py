"""What an attached `up` prints, as plain functions of the event stream's messages: each
output line after its process's name (coloured, aligned), and `[procler]` lines for
status changes and for what the session does."""

from agentcli.table import paint, printable
from procler.status_styles import PROCESS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# One colour per process, in turn, as `docker compose up` gives them.
NAME_COLOURS = ("cyan", "yellow", "green", "magenta", "blue", "red")
PROCLER = "[procler]"


class Lines:
    """The lines of one session: names aligned to the longest followed one. A process's
    output is printed as it came (its colours kept, as `docker compose up` keeps them);
    names and reasons have their control characters escaped."""

    def __init__(self, names: "list[str]", colour: bool) -> None:
        self.width = max((len(n) for n in names), default=0)
        self.colour = colour
        self.styles = {n: NAME_COLOURS[i % len(NAME_COLOURS)] for i, n in enumerate(names)}

    def output(self, message: "dict[str, Any]") -> str:
        """One output line: `name | text`."""
        name = printable(message["name"])
        prefix = paint(name.ljust(self.width) + " |", self.styles.get(name, ""), self.colour)
        return f"{prefix} {message['text']}"

    def status(self, message: "dict[str, Any]") -> str:
        """A status change: `[procler] api: starting -> running (started)`."""
        to = printable(message["to"])
        moved = paint(to, PROCESS.get(to, ""), self.colour)
        reason = f" ({printable(message['reason'])})" if message.get("reason") else ""
        return self.note(
            f"{printable(message['name'])}: {printable(message['from'])} -> {moved}{reason}"
        )

    def note(self, text: str) -> str:
        """A line of the session's own: `[procler] ...`."""
        return f"{paint(PROCLER, 'bold', self.colour)} {text}"
