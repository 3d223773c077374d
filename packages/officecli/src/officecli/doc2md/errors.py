"""doc2md's own typed errors (cheap to import: the declarations list them)."""

from __future__ import annotations

from agentcli.errors import UsageError


class OutputConflictError(UsageError):
    """An output would replace another document's output (or one no document accounts
    for), or two inputs would get the same output name."""

    code = "OUTPUT_CONFLICT"
    default_suggestion = (
        "convert into another -d folder, or pass --keep-ext to name outputs after the whole "
        "file name"
    )
