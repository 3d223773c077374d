"""The handler of `procler config init` (declared in cli.config): a commented config and
its .gitignore here, and with --skills Procler's Agent Skill for the project's agents.

A module of its own, named only by the declaration's handler string: it needs the whole
APP (the skill is generated from every declaration), which imports cli.config.
"""

import os
from pathlib import Path
from typing import Any

from agentcli.commands import Command
from agentcli.errors import UsageError
from agentcli.outputs import write_text_atomic
from procler.errors import ConfigExists
from procler.project import CONFIG_DIR, CONFIG_FILE


def init(values: dict[str, Any], command: Command) -> dict[str, Any]:
    from procler.config.template import CONFIG_TEMPLATE, GITIGNORE

    cwd = os.getcwd()
    home = os.path.expanduser("~")
    if os.path.realpath(cwd) == os.path.realpath(home):
        raise UsageError(
            f"refusing to create a project in your home directory ({home}): every directory "
            "below it would belong to that project",
            suggestion="cd into the project's directory and run `procler config init` there",
        )
    folder = os.path.join(cwd, CONFIG_DIR)
    config = os.path.join(folder, CONFIG_FILE)
    if os.path.exists(config) and not values["force"]:
        raise ConfigExists(f"{config} already exists", data={"config": config})
    # Planned first: a skill file the user changed is refused before anything is written.
    skills = _install_skills(cwd, dry_run=True) if values.get("skills") else None
    os.makedirs(folder, exist_ok=True)
    written = []
    for path, text in ((config, CONFIG_TEMPLATE), (os.path.join(folder, ".gitignore"), GITIGNORE)):
        if path == config or values["force"] or not os.path.exists(path):
            write_text_atomic(Path(path), text)
            written.append(path)
    answer: dict[str, Any] = {"config": config, "root": cwd, "written": written}
    if skills is not None:
        answer["skills"] = _install_skills(cwd, dry_run=False)
    return answer


def _install_skills(root: str, dry_run: bool) -> dict[str, Any]:
    from agentcli.skill_install import install_skills
    from procler.cli.skill import skill_files

    return install_skills({"project": root, "dry_run": dry_run}, "procler", skill_files())
