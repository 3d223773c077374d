"""The office tools' Agent Skills (each generated from its tool's declarations and the
Guide beside them) and `office-tools skills install`, which also writes the prompt files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agentcli.commands import App, Command
from agentcli.errors import UsageError
from agentcli.skill_install import Bundle, install_skills
from agentcli.skills import Guide, render
from officecli.design_diff.commands import APP as DESIGN_DIFF
from officecli.design_diff.skill import GUIDE as DESIGN_DIFF_GUIDE
from officecli.doc2md.commands import APP as DOC2MD
from officecli.doc2md.skill import GUIDE as DOC2MD_GUIDE
from officecli.fieldcheck.commands import APP as FIELDCHECK
from officecli.fieldcheck.skill import GUIDE as FIELDCHECK_GUIDE
from officecli.office_replace.commands import APP as OFFICE_REPLACE
from officecli.office_replace.skill import GUIDE as OFFICE_REPLACE_GUIDE
from officecli.office_tools import prompts

TOOLS: tuple[tuple[App, Guide], ...] = (
    (DOC2MD, DOC2MD_GUIDE),
    (FIELDCHECK, FIELDCHECK_GUIDE),
    (DESIGN_DIFF, DESIGN_DIFF_GUIDE),
    (OFFICE_REPLACE, OFFICE_REPLACE_GUIDE),
)


def skill_files() -> dict[str, dict[str, str]]:
    """Each tool's skill: its name -> its files (path inside the skill folder -> text)."""
    return {app.name: render(app, guide) for app, guide in TOOLS}


def install(values: dict[str, Any], command: Command) -> dict[str, Any]:
    extra = []
    if values.get("prompts"):
        if values.get("user"):
            raise UsageError(
                "prompt files belong to a project (.github/prompts)",
                suggestion="run with --project DIR (or from the project) instead of --user",
            )
        if values.get("target") not in (None, "all", "copilot"):
            raise UsageError(
                "prompt files are Copilot's",
                suggestion="use --target copilot or all with --prompts",
            )
        root = Path(values.get("project") or ".").absolute()
        extra.append(Bundle(root / prompts.FOLDER, prompts.prompt_files(), prompts.MANIFEST))
    return install_skills(values, "office-tools", skill_files(), extra)
