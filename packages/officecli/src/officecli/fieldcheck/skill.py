"""fieldcheck's Agent Skill: the hand-written part (when to use it, tasks, rules, workflows).

Everything else in the skill is generated from fieldcheck.commands by agentcli.skills; a test
parses every command line below.
"""

from __future__ import annotations

from agentcli.skills import Guide, Task, Workflow

GUIDE = Guide(
    description=(
        "Check tabular business data (CSV/TSV, Excel .xlsx, JSON, JSON Lines, Markdown tables) "
        "against a rules file (rules.yaml: required fields, types, ranges, lengths, patterns, "
        "allowed values, unique keys, sums, lookups in other files, expressions) and report "
        "every finding with its row and column. Use when the user asks to validate, audit or "
        "check data such as expenses, invoices, orders or master lists against rules. Not for "
        "converting documents (doc2md), comparing two workbook versions (design-diff) or "
        "changing files (office-replace); it never modifies the data."
    ),
    compatibility="Needs the fieldcheck command (officecli package). Works offline.",
    tasks=(
        Task("check a table against rules (exit 1: findings)",
             ("fieldcheck validate expenses.csv -r rules.yaml",)),
        Task("name each finding's record by its key columns (`record: {line, key}`)",
             ("fieldcheck validate expenses.csv -r rules.yaml --key id",)),
        Task("start a rules file for a data file: columns, guessed types, key, example rules (never overwrites)",
             ("fieldcheck init expenses.csv --dry-run", "fieldcheck init expenses.csv -o rules.yaml")),
        Task("check one sheet of a workbook",
             ("fieldcheck validate book.xlsx --sheet 経費 -r rules.yaml",)),
        Task("a report for a person, as a file",
             ("fieldcheck validate expenses.csv -r rules.yaml -f markdown -o report.md",)),
        Task("let warnings fail too (default: errors only)",
             ("fieldcheck validate expenses.csv -r rules.yaml --fail-on warning",)),
        Task("use another file for a dataset the rules name",
             ("fieldcheck validate expenses.csv -r rules.yaml --dataset budget=budget2026.csv",)),
        Task("keep the report short on a large file",
             ("fieldcheck validate expenses.csv -r rules.yaml --max-findings 100",)),
        Task("check a rules file without data (exit 2 with its line and column)",
             ("fieldcheck check-rules rules.yaml",)),
        Task("the rules file's layout, the rule types with their parameters, `when` operators and functions",
             ("fieldcheck list-rules",)),
        Task("the JSON Schema of rules.yaml", ("fieldcheck schema",)),
    ),
    rules=(
        "Exit 1 means the data has findings: tell the user each one (rule id, row, column, "
        "expected, actual). Do not edit the data to make findings go away unless asked.",
        "Exit 2 is the rules file (`rules.yaml:LINE:COLUMN: ...`), a rule naming a column the "
        "data lacks (the message names the closest one) or unreadable data: fix that, not "
        "the data.",
        "Start a rules file with `fieldcheck init expenses.csv -o rules.yaml`, edit it from what "
        "`fieldcheck list-rules` lists, and check it with `fieldcheck check-rules rules.yaml` "
        "before running it on data.",
    ),
    workflows=(
        Workflow(
            "start the rules for a data file (then edit them to what the user described)",
            (
                "fieldcheck init expenses.csv --dry-run",
                "fieldcheck init expenses.csv -o expenses.rules.yaml",
            ),
        ),
        Workflow(
            "check data against rules the user described",
            (
                "fieldcheck list-rules",
                "fieldcheck check-rules rules.yaml",
                "fieldcheck validate expenses.csv -r rules.yaml",
            ),
        ),
    ),
)  # fmt: skip
