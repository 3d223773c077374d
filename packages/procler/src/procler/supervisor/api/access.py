"""What a caller of the TCP listener may call: one decision, which every surface there
asks (REST: a command's route, a resource; MCP: the tools listed and called; the event
stream and its tickets; the dashboard, whose pages call those same routes with a session).

- `serve` never: it would move or close the listener its own request came through;
- a full token: every command that is a tool (procler.surfaces.arguments.TOOLS);
- a read-only token: those declared read_only, except the ones whose answer holds secrets
  (declared `secret`: `config show` answers environment values and vars).
"""

from __future__ import annotations

from dataclasses import dataclass

from agentcli.commands import Command
from procler.surfaces.arguments import TOOLS

# Not over TCP: `serve` would move or close the listener its own request came through.
NOT_OVER_TCP = frozenset({"serve"})


@dataclass(frozen=True)
class Access:
    read_only: bool

    def allows(self, cmd: Command) -> bool:
        if cmd.name in NOT_OVER_TCP:
            return False
        return not self.read_only or (cmd.read_only and not cmd.secret)

    def commands(self) -> list[Command]:
        """The commands a caller may reach at all (a full token's): the tools but serve."""
        return [c for c in TOOLS.commands() if c.name not in NOT_OVER_TCP]
