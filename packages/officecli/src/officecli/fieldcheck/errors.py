"""fieldcheck's typed errors; all are usage errors (exit 2): fix the rules or the arguments."""

from __future__ import annotations

from collections.abc import Sequence

from agentcli.errors import InputError


class RulesFileError(InputError):
    """The rules file is not valid YAML or does not follow the rules schema."""

    code = "INVALID_RULES"
    default_suggestion = "fix the rules file at the given line; `fieldcheck schema` describes it"


class MissingColumnError(InputError):
    """A rule names a column the data does not have."""

    code = "MISSING_COLUMN"
    default_suggestion = "fix the column name in the rules file (names match exactly)"


class RulesFileExistsError(InputError):
    """`init` never overwrites a file."""

    code = "OUTPUT_EXISTS"
    default_suggestion = "choose another path with -o, or move the existing file away first"


def closest(name: str, choices: Sequence[str]) -> str:
    """The choice most similar to `name` ('' when there is none)."""
    import difflib

    found = difflib.get_close_matches(name, list(choices), n=1, cutoff=0.0)
    return found[0] if found else ""


def missing_column(
    column: str, where: str, columns: Sequence[str], rule: str
) -> MissingColumnError:
    near = closest(column, columns)
    hint = f"the closest existing column is {near!r}; " if near else ""
    return MissingColumnError(
        f"{rule}: no column {column!r} in {where}",
        suggestion=f"{hint}columns are: {', '.join(columns)}",
        data={"column": column, "closest": near, "rule": rule, "input": where},
    )
