"""doc2md's own typed errors (cheap to import: the declarations list them)."""

from __future__ import annotations

from agentcli.errors import UsageError


class OutputConflictError(UsageError):
    """An output file exists and a previous run wrote it from another source."""

    code = "OUTPUT_CONFLICT"
    default_suggestion = "choose another -d folder, or pass --force to replace it"
