"""Write the generated agent guides of this repository: `skills/TOOL/` (each tool's Agent
Skill: SKILL.md and references/) and `.github/prompts/` (Copilot prompt files), from the
same code `procler skills install` and `office-tools skills install` run. `make skills`
runs this; the packages' tests fail when a committed file differs from what it writes.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from officecli.office_tools.prompts import FOLDER, prompt_files
from officecli.office_tools.skills import skill_files as office_skills
from procler.cli.skill import skill_files as procler_skills

ROOT = Path(__file__).resolve().parent.parent
SKILLS = ROOT / "skills"


def main() -> None:
    skills = {**procler_skills(), **office_skills()}
    for stale in SKILLS.iterdir() if SKILLS.is_dir() else ():
        if stale.name not in skills:
            shutil.rmtree(stale)
    for name, files in skills.items():
        folder = SKILLS / name
        if folder.is_dir():
            shutil.rmtree(folder)
        for path, text in files.items():
            (folder / path).parent.mkdir(parents=True, exist_ok=True)
            (folder / path).write_text(text, "utf-8")
    prompts = ROOT / FOLDER
    for old in prompts.glob("*.prompt.md"):
        old.unlink()
    prompts.mkdir(parents=True, exist_ok=True)
    for name, text in prompt_files().items():
        (prompts / name).write_text(text, "utf-8")
    print(f"wrote skills/ ({', '.join(skills)}) and {FOLDER}/")


if __name__ == "__main__":
    main()
