"""A skill generated from declarations: its front matter and sections, the rules every tool
shares (naming the declared commands they apply to), and the specification's checks."""

from __future__ import annotations

import pytest
from agentcli_testkit.sample_app import APP

from agentcli.commands import App, Arg, Command
from agentcli.skills import (
    COMMANDS_FILE,
    ERRORS_FILE,
    SKILL_FILE,
    TASKS_FILE,
    Guide,
    Task,
    Workflow,
    check_skill,
    front_matter,
    render,
    required_line,
    shared_rules,
)

GUIDE = Guide(
    description="Greet people. Use when the user wants a greeting; not for farewells.",
    tasks=(Task("greet someone", ("sample greet bob", "sample greet bob --loud")),),
    workflows=(Workflow("greet twice", ("sample greet bob", "sample greet bob --times 2")),),
    rules=("Greet politely.",),
    more_tasks=(Task("check a file", ("sample check data.csv",)),),
    compatibility="Needs the sample command.",
)
WRITER = App(
    "writer",
    "1.0",
    "Writes.",
    (
        Command(
            "put",
            "write files",
            "x:y",
            args=(
                Arg("src", "input", type="path", required=True),
                Arg("--to", "where", type="path", required=True, metavar="DIR"),
                Arg("--dry-run", "say only", type="boolean"),
            ),
            dry_run_first=True,
        ),
        Command("erase", "remove", "x:y", destructive=True),
    ),
)


def test_the_files_of_a_skill() -> None:
    files = render(APP, GUIDE)
    assert sorted(files) == sorted([SKILL_FILE, COMMANDS_FILE, ERRORS_FILE, TASKS_FILE])
    head, body = front_matter(files[SKILL_FILE])
    assert head.splitlines() == [
        "name: sample",
        'description: "Greet people. Use when the user wants a greeting; not for farewells."',
        'compatibility: "Needs the sample command."',
        "metadata:",
        '  version: "1.0.0"',
        '  generated-from: "sample capabilities"',
    ]
    sections = [line for line in body.splitlines() if line.startswith("## ")]
    assert sections == [
        "## What you want -> command",
        "## Rules",
        "## Files",
        "## Exit codes",
        "## Workflows",
        "## Commands",
        "## More",
    ]
    assert "| greet someone | `sample greet bob` / `sample greet bob --loud` |" in body
    assert "**greet twice**\n1. `sample greet bob`\n2. `sample greet bob --times 2`\n" in body
    assert "- Greet politely." in body
    assert "- `sample greet NAME [--times INTEGER] [--tone STRING]" in body  # usage lines
    assert files[TASKS_FILE].endswith("| check a file | `sample check data.csv` |\n")
    assert (
        "- The data file (`DATA` of `check`): a CSV file, one row per thing. Columns: `name` "
        "(required), `size` (small | large; default small). Their meanings: "
        "`references/commands.md`." in body
    )


def test_the_reference_names_every_option_and_error() -> None:
    files = render(APP, GUIDE)
    assert "## sample greet\n" in files[COMMANDS_FILE]
    assert "| `--tone` | one of warm, cold | `warm` | tone |" in files[COMMANDS_FILE]
    assert "| `--env` (repeatable) | key_value |  | KEY=VALUE |" in files[COMMANDS_FILE]
    assert "Errors: `INVALID_INPUT`, `USAGE`, `INTERNAL`, `INTERRUPTED`" in files[COMMANDS_FILE]
    assert "| `CONDITION_NOT_MET` | 1 |  | job wait |" in files[ERRORS_FILE]
    assert (
        "| `size` | no | `small` | how big it is; `small`: fits in a hand; `large`: does not |"
        in files[COMMANDS_FILE]
    )
    assert (
        "| `USAGE` | 2 | run with --help to see the valid arguments | every command |"
        in files[ERRORS_FILE]
    )


def test_the_shared_rules_name_the_declared_commands() -> None:
    rules = shared_rules(WRITER)
    assert rules[2] == (
        "**Dry run first**: before a command that writes, run it with `--dry-run` "
        "(`writer put SRC --to DIR --dry-run`), show the user what it would do, then run it "
        "without. Never skip it for `put`."
    )
    assert rules[3] == "**Ask the user first** before what stops or removes things: `erase`."
    assert required_line(WRITER, WRITER.command("put")) == "writer put SRC --to DIR"
    assert not any("Dry run" in r or "Ask the user" in r for r in shared_rules(APP))


GOOD = {"name": "sample", "description": "Does things."}


@pytest.mark.parametrize(
    ("meta", "folder", "problem"),
    [
        ({**GOOD, "name": ""}, "sample", "name must be 1-64 characters"),
        ({**GOOD, "name": "a" * 65}, "a" * 65, "name must be 1-64 characters"),
        ({**GOOD, "name": "Sample"}, "Sample", "name: lowercase a-z, 0-9 and single hyphens, not at either end"),
        ({**GOOD, "name": "-sample"}, "-sample", "name: lowercase a-z, 0-9 and single hyphens, not at either end"),
        ({**GOOD, "name": "sample-"}, "sample-", "name: lowercase a-z, 0-9 and single hyphens, not at either end"),
        ({**GOOD, "name": "sam--ple"}, "sam--ple", "name: lowercase a-z, 0-9 and single hyphens, not at either end"),
        ({**GOOD, "name": "sam_ple"}, "sam_ple", "name: lowercase a-z, 0-9 and single hyphens, not at either end"),
        (GOOD, "other", "name 'sample' must equal the folder's name 'other'"),
        ({**GOOD, "description": ""}, "sample", "description must be 1-1024 characters"),
        ({**GOOD, "description": "x" * 1025}, "sample", "description must be 1-1024 characters"),
        ({**GOOD, "compatibility": "x" * 501}, "sample", "compatibility must be 1-500 characters"),
        ({**GOOD, "metadata": {"v": 1}}, "sample", "metadata must map strings to strings"),
        ({**GOOD, "version": "1"}, "sample", "unknown front matter fields: version"),
    ],
)  # fmt: skip
def test_the_specification_rules(meta: dict[str, object], folder: str, problem: str) -> None:
    assert check_skill(folder, meta, "body\n") == [problem]


def test_a_valid_skill_and_the_body_bounds() -> None:
    meta = {
        **GOOD,
        "name": "a-1-b",
        "license": "MIT",
        "allowed-tools": "Bash",
        "metadata": {"k": "v"},
    }
    assert check_skill("a-1-b", meta, "body\n") == []
    assert check_skill("sample", GOOD, "x\n" * 500) == ["the body must stay under 500 lines"]
    assert check_skill("sample", GOOD, "word " * 1501) == ["the body must stay within 1500 words"]


def test_front_matter_is_required() -> None:
    with pytest.raises(ValueError, match="must start with a --- line"):
        front_matter("# no front matter\n")
    with pytest.raises(ValueError, match="no closing --- line"):
        front_matter("---\nname: x\n")
