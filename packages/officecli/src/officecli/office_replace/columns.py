"""The rules file's columns and the values each takes: the one place the loader, `--help`
and `capabilities` read them from. Cheap to import (the command declarations need it)."""

from __future__ import annotations

from agentcli.commands import Field, FileFormat

RULES_FILE = FileFormat(
    "rules file",
    "--rules",
    "CSV (UTF-8, BOM or CP932) or the first sheet of an xlsx; the first row names the "
    "columns, in any order; one rule per row, applied in row order",
    (
        Field("id", "the rule's name in the report and its counts (default: R and its row)"),
        Field(
            "find",
            "the text to find; a pattern that can match the empty string is refused",
            required=True,
        ),
        Field(
            "replace",
            "what takes its place (empty: delete it); in regex mode \\1 or \\g<name> "
            "inserts a group",
            required=True,
        ),
        Field(
            "mode",
            "how find is read",
            values=(
                ("literal", "the exact text"),
                ("wildcard", "* any run of characters (fewest first), ? one; ~ escapes * ? ~"),
                ("regex", "an RE2 regular expression (linear time: no look-around or backrefs)"),
            ),
            default="literal",
        ),
        Field(
            "case",
            "whether upper and lower case differ",
            values=(
                ("sensitive", "Acme does not match ACME"),
                ("ignore", "Acme matches ACME and acme"),
            ),
            default="sensitive",
        ),
        Field(
            "scope",
            "where the rule acts",
            values=(
                ("text", "text of the stories chosen by --stories"),
                (
                    "sheetname",
                    "Excel sheet names, and the formulas, defined names, charts, validations "
                    "and conditional formats that refer to them",
                ),
                ("filename", "file names (without the extension) of the copies in OUTDIR"),
                ("all", "text, sheet names and file names"),
            ),
            default="text",
        ),
        Field("note", "anything, for people; ignored"),
    ),
)
COLUMNS = tuple(f.name for f in RULES_FILE.fields)


def values(column: str) -> tuple[str, ...]:
    """The values a column takes, its default first."""
    return tuple(v for v, _ in RULES_FILE.field(column).values)
