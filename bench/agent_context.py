"""The bytes an agent reads before its first useful command, per tool: the skill's SKILL.md
(what it loads when the task matches), and SKILL.md with every reference (all it could
load), against what it read before the skills: AGENTS.md as it was at BASE (the commit the
agents' sessions of issue 39 ran on) plus the tool's `--help`, and for Procler its
`help-llm` as it is now (the guide for an agent without skills). Goal: at most 8 KB to start
using any one tool.

    python bench/agent_context.py
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from _results import Results
from _timing import tool

from officecli.office_tools.skills import skill_files as office_skills
from procler.cli.skill import skill_files as procler_skills

ROOT = Path(__file__).resolve().parent.parent
BASE = "998ada9"  # main when the sessions of issue 39 measured 17-57 KB of guides
GOAL = 8 * 1024


def before(name: str, agents_md: int | None) -> tuple[int, str] | None:
    """What an agent read before the skills (bytes, what that was); None without BASE."""
    if agents_md is None:
        return None
    reads = [[tool(name), "--help"]] + ([[tool(name), "help-llm"]] if name == "procler" else [])
    size = agents_md + sum(len(subprocess.run(argv, capture_output=True).stdout) for argv in reads)
    what = f"AGENTS.md ({BASE}) + {name} --help" + (" + help-llm" if name == "procler" else "")
    return size, what


def main() -> None:
    results = Results(
        "bytes an agent reads before its first command, per tool: skill vs the guides before"
    )
    shown = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{BASE}:AGENTS.md"], capture_output=True
    )
    agents_md = len(shown.stdout) if shown.returncode == 0 else None
    if agents_md is None:
        results.skip_peer("guides before the skills", f"commit {BASE} is not in this clone")
    print(f"{'tool':16}{'SKILL.md':>10}{'+ references':>14}{'before':>10}{'ratio':>8}")
    for name, files in {**procler_skills(), **office_skills()}.items():
        skill = len(files["SKILL.md"].encode())
        everything = sum(len(text.encode()) for text in files.values())
        results.ours(f"{name}: SKILL.md", skill, "B", goal=f"<= {GOAL}")
        results.ours(f"{name}: SKILL.md + references", everything, "B")
        then = before(name, agents_md)
        shown_before, ratio = "", ""
        if then is not None:
            results.peer(f"{name}: {then[1]}", then[0], "B")
            results.ratio(f"{name}: SKILL.md / before", skill / then[0], goal="< 1")
            shown_before, ratio = f"{then[0]:,}", f"{skill / then[0]:.2f}"
        print(f"{name:16}{skill:>10,}{everything:>14,}{shown_before:>10}{ratio:>8}")
    results.note("SKILL.md includes its front matter; the references load only when needed")
    results.write()


if __name__ == "__main__":
    main()
