"""The `skills install` declaration every tool shares (agentcli.skill_install runs it).

Cheap to import: a tool's CLI imports every declaration on each run."""

from agentcli.commands import Arg, Command
from agentcli.errors import AgentError, UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class ChangedFileError(UsageError):
    code = "FILE_CHANGED"
    default_suggestion = (
        "keep your version under another name and run again, or run with --force to replace it"
    )


def install_args(extra: "tuple[Arg, ...]" = ()) -> "tuple[Arg, ...]":
    return (
        Arg("--target", "which agents' folders", choices=("copilot", "claude", "codex", "all"), default="all"),
        Arg("--project", "the project to install into (default: the current directory)", type="path"),
        Arg("--user", "install into your home directory, for every project", type="boolean"),
        Arg("--dry-run", "answer what would be written; write nothing", type="boolean"),
        Arg("--force", "replace files you changed (or that another tool wrote)", type="boolean"),
        *extra,
    )  # fmt: skip


INSTALL_OUTPUT: "dict[str, Any]" = {
    "type": "object",
    "properties": {
        "scope": {"enum": ["project", "user"]},
        "root": {"type": "string"},
        "dry_run": {"type": "boolean"},
        "folders": {"type": "object", "description": "target -> the skills folder written"},
        "files": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"path": {"type": "string"}, "action": {"type": "string"}},
            },
        },
        "summary": {"type": "object", "description": "how many files per action"},
    },
}


def install_command(
    tool: "str",
    skills: "str",
    handler: "str",
    extra: "tuple[Arg, ...]" = (),
    errors: "tuple[type[AgentError], ...]" = (),
) -> "Command":
    """The `skills install` declaration (`skills`: what is installed, in words; `errors`:
    what the tool's handler raises besides a changed file)."""
    return Command(
        "skills install",
        f"install {skills} as Agent Skills for GitHub Copilot, Claude Code and Codex, in this "
        "project or your home; never replaces a file you changed",
        handler,
        args=install_args(extra),
        examples=(
            f"{tool} skills install",
            f"{tool} skills install --target claude --dry-run",
            f"{tool} skills install --user --target codex",
        ),
        errors=(ChangedFileError, *errors),
        output=INSTALL_OUTPUT,
    )
