"""The supervisor's side of `snippet list/show/run`: a snippet runs through the same one-off
runner as `procler exec`, its placeholders filled by type (procler.snippet_fill)."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from procler.config.model import Snippet
from procler.contexts.base import OutputBatch
from procler.errors import ConfirmationRequired, InvalidArgument, SnippetNotFound
from procler.snippet_fill import ArgumentInvalid, arguments, fill
from procler.supervisor.core import Supervisor
from procler.supervisor.exec_command import run_command

if TYPE_CHECKING:
    from procler.supervisor.commands_api import CommandHandlers

Handler = Callable[[dict[str, Any]], Awaitable[Any]]


def describe(snippet: Snippet) -> dict[str, Any]:
    """A snippet with every argument it takes (declared, or found in its placeholders)."""
    args = arguments(snippet.command, snippet.args)
    return {
        **dataclasses.asdict(snippet),
        "args": [dataclasses.asdict(a) for a in args.values()],
    }


async def run_snippet(
    sup: Supervisor,
    snippet: Snippet,
    given: dict[str, str],
    confirmed: bool,
    timeout: float,
    on_output: Callable[[OutputBatch], None] | None = None,
) -> dict[str, Any]:
    """Fill the placeholders and run it (`snippet run`, and a recipe's snippet step, which
    the recipe confirms); INVALID_ARGUMENT runs nothing."""
    try:
        command = fill(snippet.command, snippet.args, given)
    except ArgumentInvalid as exc:
        raise InvalidArgument(f"snippet {snippet.name}: {exc}") from None
    if snippet.confirm and not confirmed:
        raise ConfirmationRequired(
            f"snippet {snippet.name} asks for confirmation before it runs",
            data={"snippet": snippet.name, "command": command},
        )
    data = await run_command(
        sup,
        command,
        context=snippet.context,
        container=snippet.container,
        cwd=snippet.cwd,
        timeout=timeout,
        on_output=on_output,
    )
    return {"snippet": snippet.name, **data}


class SnippetCommands:
    def __init__(self, handlers: CommandHandlers) -> None:
        self.handlers = handlers

    def table(self) -> dict[str, Handler]:
        return {
            "snippet list": self.snippet_list,
            "snippet show": self.snippet_show,
            "snippet run": self.snippet_run,
        }

    def find_snippet(self, name: str) -> Snippet:
        snippets = self.handlers.sup.config().snippets
        if name not in snippets:
            raise SnippetNotFound.among(name, snippets)
        return snippets[name]

    async def snippet_list(self, values: dict[str, Any]) -> Any:
        tags = set(values.get("tag") or ())
        snippets = self.handlers.sup.config().snippets.values()
        return {"snippets": [describe(s) for s in snippets if not tags or tags & set(s.tags)]}

    async def snippet_show(self, values: dict[str, Any]) -> Any:
        return describe(self.find_snippet(values["name"]))

    async def snippet_run(self, values: dict[str, Any]) -> Any:
        snippet = self.find_snippet(values["name"])
        given = dict(values.get("arg") or [])
        timeout = float(values.get("timeout") or snippet.timeout)
        return await run_snippet(
            self.handlers.sup, snippet, given, bool(values.get("yes")), timeout
        )
