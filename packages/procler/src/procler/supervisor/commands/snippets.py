"""`procler snippet list|show|run`: the supervisor's side (procler/cli/snippets.py
declares them; save and remove run in the CLI). A snippet runs through the same one-off
runner as `procler exec`, its placeholders filled by type (procler.snippet_fill)."""

from __future__ import annotations

import dataclasses
from typing import Any

from procler.config.model import Snippet
from procler.snippet_fill import arguments
from procler.supervisor.commands.processes import Values
from procler.supervisor.operations import Operations


def described(snippet: Snippet) -> dict[str, Any]:
    """A snippet with every argument it takes (declared, or found in its placeholders)."""
    args = arguments(snippet.command, snippet.args)
    return {
        **dataclasses.asdict(snippet),
        "args": [dataclasses.asdict(a) for a in args.values()],
    }


async def snippet_list(ops: Operations, values: Values) -> Any:
    tags = set(values.get("tag") or ())
    snippets = ops.config().snippets.values()
    return {"snippets": [described(s) for s in snippets if not tags or tags & set(s.tags)]}


async def snippet_show(ops: Operations, values: Values) -> Any:
    return described(ops.snippet(values["name"]))


async def snippet_run(ops: Operations, values: Values) -> Any:
    timeout = values.get("timeout")
    return await ops.run_snippet(
        values["name"],
        dict(values.get("arg") or []),
        confirmed=bool(values.get("yes")),
        timeout=float(timeout) if timeout else None,
    )


COMMANDS = {
    "snippet list": snippet_list,
    "snippet show": snippet_show,
    "snippet run": snippet_run,
}
