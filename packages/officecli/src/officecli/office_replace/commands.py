"""office-replace's command declaration: the single source for the CLI and `capabilities`."""

from __future__ import annotations

from agentcli.commands import App, Arg, Command
from agentcli.errors import NotRegularFileError
from agentcli.outputs import OutputIsInputError
from officecli import __version__
from officecli.office_replace.errors import NewNameError, OutDirError, RulesError
from officecli.readers.errors import (
    BrokenFileError,
    EncryptedFileError,
    UnsafeFileError,
    UnsupportedFormatError,
)

STORIES = ("body", "headers", "footnotes", "comments", "notes", "charts", "masters")
DEFAULT_STORIES = "body,headers,footnotes,notes,charts"

REPLACE = Command(
    "replace",
    "replace text, sheet names and file names across Word, Excel and PowerPoint files; "
    "report every replacement (dry run first)",
    "officecli.office_replace.run:handle",
    mode="report",
    idempotent=True,
    args=(
        Arg("inputs", "files, or folders with -r", type="path", required=True, multiple=True, metavar="INPUT"),
        Arg("--rules", "rules file: CSV (UTF-8, BOM or CP932) or xlsx; columns find, replace, id, mode, case, scope, note", type="path", required=True),
        Arg("--out-dir", "folder that receives every input file (changed or copied), keeping the tree; required without --dry-run", short="-d", type="path"),
        Arg("--recursive", "take the files under folders", short="-r", type="boolean"),
        Arg("--dry-run", "report every replacement the real run would make; write nothing", type="boolean"),
        Arg("--force", "overwrite files that already exist in OUTDIR", type="boolean"),
        Arg("--include", "only edit files whose path or name matches this glob (repeatable)", multiple=True, metavar="GLOB"),
        Arg("--exclude", "do not edit files whose path or name matches this glob (repeatable)", multiple=True, metavar="GLOB"),
        Arg("--stories", "comma-separated parts to edit: " + ", ".join(STORIES), default=DEFAULT_STORIES),
        Arg("--continue-on-error", "write the files that could be read even when some could not (exit 0)", type="boolean"),
        Arg("--fail-on", "exit 1 when the report has a finding this severe (warning: a skipped match; info: any replacement)", choices=("none", "warning", "info"), default="none"),
    ),
    examples=(
        "office-replace -r docs/ --rules rules.csv --dry-run",
        "office-replace -r docs/ --rules rules.xlsx -d out/ -f markdown",
        "office-replace book.xlsx --rules sheets.csv -d out/ --stories body,charts",
        "office-replace -r docs/ --rules rules.csv --dry-run --fail-on info",
    ),
    errors=(
        RulesError, OutDirError, NewNameError, OutputIsInputError, NotRegularFileError,
        BrokenFileError, EncryptedFileError, UnsafeFileError, UnsupportedFormatError,
    ),
    output={"$ref": "agentcli report schema (schema_version, tool, meta, summary, findings)"},
)  # fmt: skip

APP = App(
    name="office-replace",
    version=__version__,
    description="Bulk replacement in .docx/.xlsx/.pptx (text, sheet names, file names); "
    "a dry run reports exactly what the real run writes.",
    commands=(REPLACE,),
)
