"""design-diff's command declarations: the single source for the CLI and `capabilities`."""

from __future__ import annotations

from agentcli.commands import App, Arg, Command
from agentcli.errors import NotRegularFileError
from officecli import __version__
from officecli.design_diff.errors import (
    ApiSheetError,
    KeyColumnError,
    NoHeaderError,
    PresetError,
    SpecError,
    WorkbookError,
)
from officecli.design_diff.rules import EXCEL_RULES, SPEC_RULES, rules_schema
from officecli.readers.errors import (
    BrokenFileError,
    EncryptedFileError,
    UnsafeFileError,
    UnsupportedFormatError,
)

_H = "officecli.design_diff.handlers"
_UNREADABLE = (
    NotRegularFileError,
    BrokenFileError,
    EncryptedFileError,
    UnsafeFileError,
    UnsupportedFormatError,
)
DEFAULT_MAX_CELLS = 1_000_000  # per workbook; about 300 bytes of memory each
_FAIL_ON = Arg(
    "--fail-on",
    "lowest severity that makes the exit code 1 (default info: any difference)",
    choices=("error", "warning", "info"),
    default="info",
)
_PRESET = (
    Arg("--type", "preset: which columns are keys, ignored, and how severe each change is (narrowing above widening)", choices=("api", "table", "screen", "generic"), default="generic"),
    Arg("--preset-file", "a team's own preset (YAML, as `design-diff presets` shows them)", type="path"),
)  # fmt: skip
_SHEETS = (
    Arg("--sheet", "compare only this sheet (repeatable)", multiple=True),
    Arg("--header-row", "sheet row of the table headers (default: found)", type="integer", default=0),
    Arg("--max-cells", "refuse workbooks with more cells than this", type="integer", default=DEFAULT_MAX_CELLS),
)  # fmt: skip

EXCEL = Command(
    "excel",
    "see what changed between two versions of a design workbook, rows joined on their key",
    f"{_H}:excel_handler",
    mode="report",
    read_only=True,
    args=(
        Arg("--before", "the old workbook (.xlsx)", type="path", required=True),
        Arg("--after", "the new workbook (.xlsx)", type="path", required=True),
        *_PRESET,
        Arg("--key", "key column header (repeatable for a compound key); the row naming it is the header, even under a title block", multiple=True),
        *_SHEETS,
        Arg("--ignore", "leave this column out of the comparison (repeatable)", multiple=True),
        Arg("--ignore-space", "trim and collapse whitespace before comparing", short="-w", type="boolean"),
        Arg("--ignore-case", "compare case-insensitively", short="-i", type="boolean"),
        Arg("--no-nfkc", "keep full-width and half-width forms apart (NFKC folding is on by default)", type="boolean"),
        Arg("--numeric-tolerance", "numbers closer than this are equal", type="number", default=0.0),
        Arg("--formulas", "compare formulas instead of their cached values", type="boolean"),
        Arg("--no-renamed-rows", "report a changed key as a row removed and a row added, not as one row.renamed", type="boolean"),
        _FAIL_ON,
    ),
    examples=(
        "design-diff excel --before v1.xlsx --after v2.xlsx --type api",
        "design-diff excel --before old.xlsx --after new.xlsx --key 物理名 -w -f markdown",
        "design-diff excel --before a.xlsx --after b.xlsx --preset-file team.yaml --fail-on error",
    ),
    errors=(WorkbookError, *_UNREADABLE, NoHeaderError, KeyColumnError, PresetError),
    output=rules_schema(EXCEL_RULES),
)  # fmt: skip

SPEC = Command(
    "spec",
    "check an Excel API definition against openapi.yaml (endpoints and properties, both ways)",
    f"{_H}:spec_handler",
    mode="report",
    read_only=True,
    args=(
        Arg("--excel", "the API definition workbook (.xlsx)", type="path", required=True),
        Arg("--oas", "the OpenAPI 3.0/3.1 file (YAML or JSON)", type="path", required=True),
        Arg("--type", "preset reading the item table (columns, sections, types)", choices=("api",), default="api"),
        _PRESET[1],
        *_SHEETS,
        Arg("--severity-file", "YAML mapping rule id -> severity, overriding the defaults", type="path"),
        _FAIL_ON,
    ),
    examples=(
        "design-diff spec --excel api.xlsx --oas openapi.yaml",
        "design-diff spec --excel api.xlsx --oas openapi.json --severity-file sev.yaml -f markdown",
    ),
    errors=(WorkbookError, *_UNREADABLE, NoHeaderError, PresetError, SpecError, ApiSheetError),
    output=rules_schema(SPEC_RULES),
)  # fmt: skip

PRESETS = Command(
    "presets",
    "list the shipped presets with their keys, ignored and recognised columns, severities",
    f"{_H}:presets_handler",
    read_only=True,
    examples=("design-diff presets",),
    errors=(PresetError,),
    output={"type": "object", "description": "presets by name"},
)

APP = App(
    name="design-diff",
    version=__version__,
    description="Keyed diff of Excel design documents, and Excel API definitions against OpenAPI.",
    commands=(EXCEL, SPEC, PRESETS),
)
