"""office-replace's typed errors: all are exit 2 (fix the rules, the arguments or a name)."""

from __future__ import annotations

from agentcli.errors import InputError, UsageError
from officecli.office_replace.columns import COLUMNS


class RulesError(InputError):
    """The rules file cannot be used; the message names the row."""

    code = "INVALID_RULES"
    default_suggestion = f"fix the rules file at the given row (columns: {', '.join(COLUMNS)})"


class OutDirError(UsageError):
    """The output folder is missing, overlaps an input or would overwrite files."""

    code = "BAD_OUT_DIR"
    default_suggestion = "pass -d OUTDIR outside every input folder"


class NewNameError(InputError):
    """A renamed sheet or file would be invalid or collide with another one."""

    code = "BAD_NEW_NAME"
    default_suggestion = "change the rule so every new sheet or file name is valid and unique"


class GrowthError(InputError):
    """The rules would write more text into a story or a file than --max-growth allows."""

    code = "GROWTH_LIMIT"
    default_suggestion = (
        "reorder or narrow the rules so that none finds what another wrote (a longer find, "
        "or one rule instead of several); if that much text is intended, raise --max-growth"
    )
