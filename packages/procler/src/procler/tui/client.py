"""The TUI's one way to the supervisor: the CLI's commands, run as MCP runs them.

Calls block on the supervisor's socket, so the app runs them in worker threads; a call's
answer is the CLI's envelope and exit code, errors included (never an exception).
"""

from dataclasses import dataclass

from procler.cli import APP
from procler.surfaces import tools

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

LOG_PAGE = 200  # lines fetched at a time: a large log is paged from the store, never loaded whole


@dataclass(frozen=True)
class Answer:
    """One command's envelope and exit code."""

    envelope: "dict[str, Any]"
    exit_code: int

    @property
    def ok(self) -> bool:
        return bool(self.envelope.get("success"))

    @property
    def data(self) -> "Any":
        return self.envelope.get("data")

    def error_text(self) -> str:
        """The error and its suggestion, as the TUI shows a failed action."""
        text = str(self.envelope.get("error") or "failed")
        code = self.envelope.get("error_code")
        suggestion = self.envelope.get("suggestion")
        head = f"{code}: {text}" if code else text
        return f"{head}\n{suggestion}" if suggestion else head


class Client:
    """Runs the CLI's commands for one project (its config path, or found from the cwd)."""

    def __init__(self, config: "str | None") -> None:
        self.config = config

    def run(self, command: str, **arguments: "Any") -> Answer:
        """Run one command by its name (`start`, `group start`...) with tool arguments."""
        cmd = APP.command(command)
        given = {k: v for k, v in arguments.items() if v is not None}
        envelope, code = tools.call(cmd, given, self.config)
        return Answer(envelope, code)

    def processes(self) -> "list[dict[str, Any]]":
        """Every process's status row (the supervisor's, or the disk's when none runs)."""
        answer = self.run("status")
        return list(answer.data["processes"]) if answer.ok else []

    def logs(self, names: "list[str]", *, run: "str | None", until: "str | None") -> Answer:
        """The newest LOG_PAGE lines of these processes, interleaved by time; `until` pages
        back from the oldest line shown."""
        if len(names) == 1:
            return self.run("logs", name=names[0], tail=LOG_PAGE, run=run, until=until)
        answers = [self.run("logs", name=n, tail=LOG_PAGE, run=run, until=until) for n in names]
        failed = [a for a in answers if not a.ok]
        if failed:
            return failed[0]
        lines = sorted(
            (
                dict(line, name=name)
                for name, a in zip(names, answers, strict=True)
                for line in a.data["lines"]
            ),
            key=lambda line: str(line["ts"]),
        )[-LOG_PAGE:]
        truncated = any(a.data["truncated"] for a in answers)
        return Answer({"success": True, "data": {"lines": lines, "truncated": truncated}}, 0)
