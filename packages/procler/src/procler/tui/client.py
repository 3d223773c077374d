"""The TUI's one way to the supervisor: the CLI's commands, run as MCP runs them.

Calls block on the supervisor's socket, so the app runs them in worker threads; a call's
answer is the CLI's envelope and exit code, errors included (never an exception).
"""

from dataclasses import dataclass

from procler.declarations import APP
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
    """Runs the CLI's commands for one project (its config file)."""

    def __init__(self, config: str) -> None:
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

    def logs(self, names: "list[str]", *, run: "str | None", page: int) -> Answer:
        """One page of these processes' lines, interleaved by time: page 0 the newest
        LOG_PAGE, page 1 the LOG_PAGE before them... Lines captured together share a
        timestamp, so pages count lines from the newest rather than bisect on time; a page
        reads only the lines down to it, never the whole log."""
        depth = LOG_PAGE * (page + 1)
        answers = [self.run("logs", name=name, tail=depth, run=run) for name in names]
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
        )[-depth:]
        lines = lines[: max(len(lines) - LOG_PAGE * page, 0)][-LOG_PAGE:]
        older = any(a.data["truncated"] for a in answers)
        return Answer({"success": True, "data": {"lines": lines, "older": older}}, 0)
