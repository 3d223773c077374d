"""office-replace's command declaration: the single source for the CLI and `capabilities`."""

from __future__ import annotations

from agentcli.commands import App, Arg, Command
from agentcli.errors import NotRegularFileError
from agentcli.outputs import OutputIsInputError
from officecli import __version__
from officecli.office_replace.columns import COLUMNS, RULES_FILE
from officecli.office_replace.errors import GrowthError, NewNameError, OutDirError, RulesError
from officecli.readers.errors import (
    BrokenFileError,
    EncryptedFileError,
    UnsafeFileError,
    UnsupportedFormatError,
)

STORIES = ("body", "headers", "footnotes", "comments", "notes", "charts", "masters")
DEFAULT_STORIES = "body,headers,footnotes,notes,charts"
DEFAULT_FACTOR = 16  # --max-growth (growth.py explains the bound)
SKIPPED, FURIGANA = "replace.skipped", "replace.furigana"
FAILED, UNCOVERED = "replace.failed", "rule.uncovered"
RULE_IDS = {
    "ID": "a replacement made by the rule with this id; field: its story (body, headers, ..., "
    "sheetname, filename), or `sheet reference` for a formula a sheet rename rewrites",
    SKIPPED: "a match not made: it spans a tab, a break, a field, a tracked change ... (field: "
    "the rule id)",
    FURIGANA: "a changed Excel string whose furigana was left as it was",
    FAILED: "a file that could not be read or edited (field: the error code)",
    UNCOVERED: "a rule's find text where the rule does not act; the suggestion is what would "
    "cover it (the row to add, or the --stories to pass), field: the rule id",
}
STORY_FLOOR, FILE_FLOOR, MIN_CHARGE = 1024, 4096, 4

REPLACE = Command(
    "replace",
    "replace text, sheet names and file names across Word, Excel and PowerPoint files; "
    "report every replacement (dry run first)",
    "officecli.office_replace.run:handle",
    mode="report",
    idempotent=True,
    dry_run_first=True,
    args=(
        Arg("inputs", "files, or folders with -r", type="path", required=True, multiple=True, metavar="INPUT"),
        Arg("--rules", "the rules file, CSV or xlsx, with the columns " + ", ".join(COLUMNS) + " (described below)", type="path", required=True),
        Arg("--out-dir", "folder that receives every input file (changed or copied), keeping the tree; required without --dry-run", short="-d", type="path"),
        Arg("--recursive", "take the files under folders", short="-r", type="boolean"),
        Arg("--dry-run", "report every replacement the real run would make; write nothing", type="boolean"),
        Arg("--force", "overwrite files that already exist in OUTDIR", type="boolean"),
        Arg("--include", "only edit files whose path or name matches this glob (repeatable)", multiple=True, metavar="GLOB"),
        Arg("--exclude", "do not edit files whose path or name matches this glob (repeatable)", multiple=True, metavar="GLOB"),
        Arg("--stories", "comma-separated parts to edit: " + ", ".join(STORIES), default=DEFAULT_STORIES),
        Arg("--continue-on-error", "write the files that could be read even when some could not (exit 0)", type="boolean"),
        Arg("--max-growth", f"the most text the rules may write into one part, or one file, as a multiple of its text (parts under {STORY_FLOOR:,} characters and files under {FILE_FLOOR:,} count as that long; a replacement counts at least {MIN_CHARGE} characters); more is exit 2 (GROWTH_LIMIT), naming the rules", type="integer", default=DEFAULT_FACTOR, metavar="FACTOR"),
        Arg("--fail-on", "exit 1 when the report has a finding this severe (warning: a skipped match, or find text left where no rule of the set acts; info: any replacement)", choices=("none", "warning", "info"), default="none"),
    ),
    examples=(
        "office-replace -r docs/ --rules rules.csv --dry-run",
        "office-replace -r docs/ --rules rules.xlsx -d out/ -f markdown",
        "office-replace book.xlsx --rules sheets.csv -d out/ --stories body,charts",
        "office-replace -r docs/ --rules rules.csv --dry-run --fail-on info",
    ),
    files=(RULES_FILE,),
    errors=(
        RulesError, GrowthError, OutDirError, NewNameError, OutputIsInputError, NotRegularFileError,
        BrokenFileError, EncryptedFileError, UnsafeFileError, UnsupportedFormatError,
    ),
    output={
        "$ref": "agentcli report schema (schema_version, tool, meta, summary, findings)",
        "rule_ids": RULE_IDS,
    },
)  # fmt: skip

APP = App(
    name="office-replace",
    version=__version__,
    description="Bulk replacement in .docx/.xlsx/.pptx (text, sheet names, file names); "
    "a dry run reports exactly what the real run writes.",
    commands=(REPLACE,),
)
