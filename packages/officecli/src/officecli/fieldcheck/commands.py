"""fieldcheck's command declarations (cheap to import: handlers load on use)."""

from __future__ import annotations

from agentcli.commands import App, Arg, Command
from agentcli.errors import FileTooLargeError, InputError, NotRegularFileError
from agentcli.outputs import OutputIsInputError
from officecli import __version__
from officecli.fieldcheck.errors import MissingColumnError, RulesFileError, RulesFileExistsError
from officecli.readers.errors import BrokenFileError, EncryptedFileError, UnsafeFileError

_H = "officecli.fieldcheck.handlers"
# Unreadable data files raise readers.tabular.TableReadError, an InputError with its code;
# an xlsx file over a safety limit, damaged or encrypted raises a reader error (exit 2).
_ERRORS = (
    RulesFileError,
    MissingColumnError,
    InputError,
    OutputIsInputError,
    UnsafeFileError,
    BrokenFileError,
    EncryptedFileError,
    NotRegularFileError,
    FileTooLargeError,
)


_DATASET_ROOT = Arg(
    "--dataset-root",
    "folder the rules file's datasets must resolve inside (default: the rules file's folder)",
    type="path",
)

VALIDATE = Command(
    "validate",
    "check a CSV/TSV/xlsx/JSON/JSONL/Markdown table against a rules file; report findings",
    f"{_H}:validate_handler",
    mode="report",
    read_only=True,
    args=(
        Arg("data", "the data file", type="path", required=True),
        Arg("--rules", "the rules file (YAML)", short="-r", type="path", required=True),
        Arg(
            "--key",
            "columns naming a record in findings, comma-separated (default: the rules "
            "file's `key`); each finding's record gets their values",
            metavar="COL[,COL]",
        ),
        Arg("--sheet", "xlsx sheet name (default: the first sheet)"),
        Arg("--encoding", "text encoding of CSV/TSV/Markdown (default: detected)"),
        Arg(
            "--dataset",
            "override a dataset path of the rules file",
            type="key_value",
            multiple=True,
            metavar="NAME=FILE",
        ),
        _DATASET_ROOT,
        Arg(
            "--fail-on",
            "lowest severity that makes the exit code 1",
            choices=("error", "warning"),
            default="error",
        ),
        Arg("--max-findings", "keep at most N findings in the report", type="integer"),
    ),
    examples=(
        "fieldcheck validate expenses.csv -r rules.yaml",
        "fieldcheck validate expenses.csv -r rules.yaml --key id",
        "fieldcheck validate book.xlsx --sheet 経費 -r rules.yaml -f markdown -o report.md",
    ),
    errors=_ERRORS,
    output={"$ref": "agentcli report schema (schema_version, tool, meta, summary, findings)"},
)

APP = App(
    name="fieldcheck",
    version=__version__,
    description="Rule-based consistency checks for tabular business data; findings as a report.",
    commands=(
        VALIDATE,
        Command(
            "init",
            "write a commented rules file for DATA: its columns, guessed types, a key and one "
            "example rule of each common kind (never overwrites; --dry-run prints it)",
            f"{_H}:init_handler",
            args=(
                Arg("data", "the data file the rules are for", type="path", required=True),
                Arg(
                    "--output",
                    "the rules file to write (default: DATA's name with .rules.yaml, beside it)",
                    short="-o",
                    type="path",
                ),
                Arg("--sheet", "xlsx sheet name (default: the first sheet)"),
                Arg("--encoding", "text encoding of CSV/TSV/Markdown (default: detected)"),
                Arg(
                    "--dry-run", "print the rules file in the answer; write nothing", type="boolean"
                ),
            ),
            examples=(
                "fieldcheck init expenses.csv --dry-run",
                "fieldcheck init expenses.csv -o rules.yaml",
            ),
            errors=(RulesFileExistsError, InputError, OutputIsInputError, UnsafeFileError),
            output={
                "type": "object",
                "description": "rules_file (the path), written (false on --dry-run), text (the file)",
            },
        ),
        Command(
            "check-rules",
            "check a rules file without any data (exit 2 with the line of the first problem)",
            f"{_H}:check_rules_handler",
            read_only=True,
            args=(Arg("rules", "the rules file (YAML)", type="path", required=True), _DATASET_ROOT),
            examples=("fieldcheck check-rules rules.yaml",),
            errors=(RulesFileError, NotRegularFileError),
            output={"type": "object", "description": "the rule ids, types and severities"},
        ),
        Command(
            "list-rules",
            "list the rules file layout (top-level keys, an example), then the rule types with "
            "their parameters, condition operators and functions",
            f"{_H}:list_rules_handler",
            read_only=True,
            examples=("fieldcheck list-rules",),
            output={"type": "object", "description": "rule types and their parameters"},
        ),
        Command(
            "schema",
            "print the JSON Schema of rules.yaml",
            f"{_H}:schema_handler",
            read_only=True,
            examples=("fieldcheck schema",),
            output={"type": "object", "description": "a JSON Schema (draft 2020-12)"},
        ),
    ),
)
