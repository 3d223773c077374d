"""Looking up a named thing of the config (a group, recipe or snippet): an unknown name
raises the kind's NOT_FOUND error with a did-you-mean and the command that lists them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from agentcli.errors import AgentError
from agentcli.parser import did_you_mean

T = TypeVar("T")


def find_named(
    things: Mapping[str, T], name: str, what: str, error: type[AgentError], listing: str
) -> T:
    if name not in things:
        hint = did_you_mean(name, sorted(things))
        raise error(
            f"no {what} named {name!r}",
            suggestion=(hint + " " if hint else "") + f"run `{listing}`",
        )
    return things[name]
