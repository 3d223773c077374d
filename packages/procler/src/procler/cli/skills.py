"""`procler skills install`: its declaration (the handler is procler.cli.skill.install,
named by string: it generates the skill from every declaration, this module's included)."""

from agentcli.skill_command import install_command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agentcli.commands import Command

SKILLS_COMMANDS: "tuple[Command, ...]" = (
    install_command("procler", "Procler's skill", "procler.cli.skill:install"),
)
