"""The snippet commands: their declarations. list, show and run are answered by the
supervisor (a snippet runs in the project's environment, through the runner `procler exec`
uses); save and remove write the runtime definitions file where they are asked
(procler.cli.snippets), as `define` does."""

from agentcli.commands import Arg, Command
from procler.declarations.config import EXEC_WHERE
from procler.declarations.processes import EXEC_ERRORS, FORWARD, SUPERVISED
from procler.errors import (
    ConfirmationRequired,
    Conflict,
    InvalidArgument,
    SnippetNotFound,
)

HANDLERS = "procler.cli.snippets:"
SNIPPET_NAME = Arg("name", "snippet name (see `procler snippet list`)", required=True)
SNIPPET = {
    "type": "object",
    "description": "name, command, description, context, container, cwd, tags, timeout, "
    "confirm, source (config or runtime), args (name, type, default, required, choices)",
}

SNIPPET_COMMANDS: "tuple[Command, ...]" = (
    Command(
        "snippet list",
        "the snippets (config and saved), with their arguments",
        FORWARD,
        args=(Arg("--tag", "only snippets carrying this tag (repeatable: any)", multiple=True),),
        examples=("procler snippet list", "procler snippet list --tag db"),
        errors=SUPERVISED,
        read_only=True,
        output={"type": "object", "properties": {"snippets": {"type": "array", "items": SNIPPET}}},
    ),
    Command(
        "snippet show",
        "one snippet with its arguments",
        FORWARD,
        args=(SNIPPET_NAME,),
        examples=("procler snippet show migrate",),
        errors=(*SUPERVISED, SnippetNotFound),
        read_only=True,
        output=SNIPPET,
    ),
    Command(
        "snippet run",
        "run a snippet with its @{arg} placeholders filled (strings quoted as one shell word, "
        "numbers and booleans checked); exit 1 with COMMAND_FAILED when it exits non-zero",
        FORWARD,
        args=(
            SNIPPET_NAME,
            Arg("--arg", "an argument (repeatable)", type="key_value", multiple=True),
            Arg("--yes", "run a snippet marked confirm: true", type="boolean"),
            Arg("--timeout", "stop it (TERM, then KILL) after this long", type="duration"),
        ),
        idempotent=False,
        destructive=True,
        examples=(
            "procler snippet run migrate --arg target=head",
            "procler snippet run reset --yes",
        ),
        errors=(
            *SUPERVISED,
            SnippetNotFound,
            InvalidArgument,
            ConfirmationRequired,
            *EXEC_ERRORS,
        ),
        output={
            "type": "object",
            "description": "snippet, command (as run), context, exit_code, signal, stdout, "
            "stderr, truncated, duration_seconds, timed_out",
        },
    ),
    Command(
        "snippet save",
        "save a snippet in the runtime definitions file (the same one again: no-op)",
        HANDLERS + "save",
        args=(
            Arg("name", "snippet name", required=True),
            Arg("--command", "the command line, with @{arg} placeholders", required=True),
            Arg("--description", "what it does"),
            Arg("--tag", "a tag (repeatable)", multiple=True),
            *EXEC_WHERE,
            Arg("--force", "replace a different saved snippet of that name", type="boolean"),
        ),
        examples=("procler snippet save dbsize --command 'du -sh @{path:data}' --tag db",),
        errors=(*SUPERVISED, Conflict),
        output={"type": "object", "properties": {"name": {}, "changed": {}, "snippet": SNIPPET}},
    ),
    Command(
        "snippet remove",
        "remove a saved snippet (removing one that is not there: no-op)",
        HANDLERS + "remove",
        args=(Arg("name", "snippet name", required=True),),
        examples=("procler snippet remove dbsize",),
        errors=SUPERVISED,
        destructive=True,
        output={"type": "object", "properties": {"name": {}, "removed": {"type": "boolean"}}},
    ),
)
