"""office-replace's Agent Skill: the hand-written part (when to use it, tasks, rules, workflows).

Everything else in the skill is generated from office_replace.commands by agentcli.skills; a
test parses every command line below.
"""

from __future__ import annotations

from agentcli.skills import Guide, Task, Workflow

GUIDE = Guide(
    description=(
        "Replace text in bulk across Word (.docx, .docm), Excel (.xlsx, .xlsm) and PowerPoint "
        "(.pptx, .pptm) files: a company, product or person name, a fiscal year, in body text, "
        "tables, headers and footers, text boxes, notes and charts, plus Excel sheet names "
        "(with every formula that refers to them) and file names. Writes changed copies to a "
        "new folder and reports every replacement; a dry run reports exactly what the real run "
        "writes. Use when the user asks to rename or replace something everywhere in Office "
        "documents. Not for PDFs or plain text files, nor for reading documents (doc2md)."
    ),
    compatibility="Needs the office-replace command (officecli package). Works offline.",
    tasks=(
        Task("see every replacement the rules would make, writing nothing",
             ("office-replace -r docs/ --rules rules.csv --dry-run",)),
        Task("then write the replaced copies (every file, tree kept; originals untouched)",
             ("office-replace -r docs/ --rules rules.csv -d out/",)),
        Task("rename Excel sheets and every formula, name and chart referring to them (rule `scope: sheetname`)",
             ("office-replace book.xlsx --rules sheets.csv -d out/",)),
        Task("edit only some parts (default body,headers,footnotes,notes,charts)",
             ("office-replace -r docs/ --rules rules.csv -d out/ --stories body,comments",)),
        Task("only some files", ("office-replace -r docs/ --rules rules.csv --dry-run --include '*.docx'",)),
        Task("the rules file's columns and the values each takes", ("office-replace --help",)),
        Task("check first that nothing would be left: find text no rule acts on is `rule.uncovered`, its suggestion the row to add",
             ("office-replace -r docs/ --rules rules.csv --dry-run --fail-on warning",)),
        Task("check that no old name is left in the copies (exit 1 if a rule still matches)",
             ("office-replace -r out/ --rules rules.csv --dry-run --fail-on info",)),
        Task("the report for a person", ("office-replace -r docs/ --rules rules.csv --dry-run -f markdown",)),
    ),
    rules=(
        "A bad rules row is exit 2 naming the row; rules that feed each other (a later rule "
        "finds what an earlier one wrote) stop with exit 2 `GROWTH_LIMIT` naming them.",
        "**Show the dry run before writing**: show the user the replacements (each with its "
        "location, the text before and after) and every `replace.skipped` warning; run the "
        "real run only when they agree, with the same inputs and rules plus `-d OUTDIR`.",
        "`-d OUTDIR` receives every input file (changed or copied); it must not be, hold or "
        "sit inside an input folder, and existing files there need `--force`.",
    ),
    workflows=(
        Workflow(
            "rename a name everywhere, dry run first",
            (
                "office-replace -r docs/ --rules rules.csv --dry-run",
                "office-replace -r docs/ --rules rules.csv -d out/",
                "office-replace -r out/ --rules rules.csv --dry-run --fail-on info",
            ),
        ),
    ),
)  # fmt: skip
