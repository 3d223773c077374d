"""`procler skills install`: its declaration. It runs in the CLI process
(procler.cli.skill, which generates the skill from every declaration)."""

from agentcli.skill_command import install_command
from procler.errors import PermissionDenied

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agentcli.commands import Command

SKILLS_COMMANDS: "tuple[Command, ...]" = (
    install_command(
        "procler", "Procler's skill", "procler.cli.skill:install", errors=(PermissionDenied,)
    ),
)
