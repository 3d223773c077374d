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


SIMILAR = 0.6  # difflib ratio (case folded) at which a column may be a misspelling of a wanted one


def recognised(columns: Sequence[str], wanted: Sequence[str]) -> bool:
    """Whether a header is one of the expected format: it holds a column the rules name, or
    one close to it. Only then are its names quoted: a file of secrets read as a table
    (`datasets: {x: /etc/shadow}`) must never have its first line shown."""
    import difflib

    if any(name in columns for name in wanted):
        return True
    folded = [c.casefold() for c in columns]
    return any(
        difflib.SequenceMatcher(None, name.casefold(), column).ratio() >= SIMILAR
        for name in wanted
        for column in folded
    )


def missing_column(
    column: str, where: str, columns: Sequence[str], rule: str, wanted: Sequence[str] = ()
) -> MissingColumnError:
    """MISSING_COLUMN for `column`; the header's names (and the closest) are quoted only
    when the header is recognised among the columns `wanted` with it."""
    if not recognised(columns, [column, *wanted]):
        return MissingColumnError(
            f"{rule}: no column {column!r} in {where}",
            suggestion=f"none of the columns the rules name is in its header "
            f"({len(columns)} column(s)): check that it is the right file",
            data={"column": column, "closest": "", "rule": rule, "input": where},
        )
    near = closest(column, columns)
    hint = f"the closest existing column is {near!r}; " if near else ""
    return MissingColumnError(
        f"{rule}: no column {column!r} in {where}",
        suggestion=f"{hint}columns are: {', '.join(columns)}",
        data={"column": column, "closest": near, "rule": rule, "input": where},
    )
