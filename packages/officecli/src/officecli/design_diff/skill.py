"""design-diff's Agent Skill: the hand-written part (when to use it, tasks, rules, workflows).

Everything else in the skill is generated from design_diff.commands by agentcli.skills; a
test parses every command line below.
"""

from __future__ import annotations

from agentcli.skills import Guide, Task, Workflow

GUIDE = Guide(
    description=(
        "Compare two versions of an Excel design document (API definitions, table or database "
        "definitions, screen item lists) with rows joined on their key, and report added, "
        "removed, renamed, moved and changed rows and cells, graded by severity (a narrowed "
        "type or length, a removed or renamed item is an error). Also checks an Excel API "
        "definition against an OpenAPI file. Use when the user asks what changed between two "
        "design workbooks, whether a change breaks clients, or whether the Excel spec matches "
        "openapi.yaml. Reads .xlsx only. Not for reading one document (doc2md), validating "
        "data rows against rules (fieldcheck) or editing workbooks (office-replace)."
    ),
    compatibility="Needs the design-diff command (officecli package). Works offline.",
    tasks=(
        Task("what changed between two versions of a design workbook (exit 1: differences)",
             ("design-diff excel --before v1.xlsx --after v2.xlsx",)),
        Task("an API definition: only what breaks clients fails",
             ("design-diff excel --before v1.xlsx --after v2.xlsx --type api --fail-on error",)),
        Task("a table definition under a title block, keyed by a column",
             ("design-diff excel --before v1.xlsx --after v2.xlsx --type table --key 物理名",)),
        Task("ignore whitespace and case, for a person",
             ("design-diff excel --before v1.xlsx --after v2.xlsx -w -i -f markdown",)),
        Task("a changed key as a row removed and a row added, not row.renamed",
             ("design-diff excel --before v1.xlsx --after v2.xlsx --no-renamed-rows",)),
        Task("compare one sheet, the header on a given row",
             ("design-diff excel --before v1.xlsx --after v2.xlsx --sheet Users --header-row 3",)),
        Task("a team's own preset (keys, ignored columns, severities)",
             ("design-diff excel --before v1.xlsx --after v2.xlsx --preset-file team.yaml",)),
        Task("check an Excel API definition against OpenAPI (both ways)",
             ("design-diff spec --excel api.xlsx --oas openapi.yaml",)),
        Task("the shipped presets: keys, recognised columns, severities", ("design-diff presets",)),
    ),
    rules=(
        "Exit 1 means differences were found (by default any difference; `--fail-on error` "
        "only breaking ones): report them, grouped by severity. It is not a failure.",
        "A finding's `expected` is the old value, `actual` the new one; `details.direction` "
        "says widened or narrowed. Quote them as they are.",
        "Exit 2 `NO_HEADER` or `UNKNOWN_COLUMN`: give `--key` (the message names the closest "
        "column), `--header-row` or `--type`; the workbooks are not at fault.",
    ),
    workflows=(
        Workflow(
            "what changed between two design workbooks",
            (
                "design-diff presets",
                "design-diff excel --before v1.xlsx --after v2.xlsx --type table",
            ),
        ),
    ),
)  # fmt: skip
