"""`procler logs`: its declaration; its handler (procler.cli.logs) queries the log store
from where it is asked, with no supervisor round trip."""

from agentcli.commands import Arg, Command
from procler.errors import (
    ConfigInvalid,
    ConfigNotFound,
    GroupNotFound,
    PermissionDenied,
    ProcessNotFound,
    RecipeNotFound,
)

RUN_HELP = (
    "which runs: current (the default: the run going on; between runs, e.g. a scheduled "
    "process waiting for its next slot or a process that ended, its last run), previous "
    "(the one before), last-failed (the newest crashed run), N, or all"
)
LOGS_COMMANDS: "tuple[Command, ...]" = (
    Command(
        "logs",
        "a process's output lines (stdout and stderr) of its current run by default (between "
        "runs, e.g. a scheduled process waiting for its next slot: its last run; --run "
        "all for every run), with filters; --follow streams NDJSON",
        "procler.cli.logs:show",
        read_only=True,
        args=(
            Arg(
                "name",
                "process name (a process with replicas: all its instances, interleaved; "
                "or use --all / --group)",
            ),
            Arg("--all", "every process, interleaved by time", type="boolean"),
            Arg("--group", "every member of this group, interleaved by time"),
            Arg("--recipe", "the output of this recipe's steps (every run)"),
            Arg(
                "--tail",
                "at most this many lines: the newest, or with --after the first after the "
                "cursor (an answer holds at most 10,000 lines or 4 MiB: `more` and `cursor` "
                "then say where to go on)",
                type="integer",
                default=100,
            ),
            Arg(
                "--after",
                "only lines written after this cursor (the `cursor` of an earlier answer, or "
                "the last line of --follow): the next page, or what came since",
            ),
            Arg("--since", "only lines at or after this time (5m, 1h30m, or ISO-8601)"),
            Arg("--until", "only lines at or before this time (5m, 1h30m, or ISO-8601)"),
            Arg("--stream", "only this stream", choices=("stdout", "stderr")),
            Arg("--grep", "only lines matching this regular expression"),
            Arg(
                "--run",
                RUN_HELP,
                default="current",
            ),
            Arg(
                "--follow",
                "keep printing new lines as NDJSON until --timeout or Ctrl-C",
                type="boolean",
                short="-f",
            ),
            Arg(
                "--timeout",
                "with --follow: stop after this long, with a last line "
                '{"end": "timeout", "cursor": ...} to resume from',
                type="duration",
                default="30s",
            ),
        ),
        examples=(
            "procler logs api --tail 50",
            "procler logs api --stream stderr --since 5m --grep ERROR",
            "procler logs api --run last-failed",
            "procler logs --all --follow --timeout 10s",
            "procler logs api --tail 50000 --after api:3:1048576",
        ),
        errors=(
            ConfigNotFound,
            PermissionDenied,
            ConfigInvalid,
            ProcessNotFound,
            GroupNotFound,
            RecipeNotFound,
        ),
        output={
            "type": "object",
            "properties": {
                "lines": {"type": "array", "items": {"type": "object"}},
                "truncated": {"type": "boolean", "description": "older lines left out"},
                "more": {
                    "type": "boolean",
                    "description": "the answer was cut at a page: pass `cursor` to --after",
                },
                "cursor": {
                    "type": "string",
                    "description": "where this answer ends in each log, for --after",
                },
            },
            "description": "each line: ts, stream, run, text (+ process with --all/--group); "
            "ts is when the line was read (by the engine, for a container's own output), to "
            "the microsecond, and never before the line stored ahead of it in its process's "
            "log; "
            "--follow prints one line object per output line instead, and on its timeout a "
            'last object {"end": "timeout", "timeout_seconds", "lines", "cursor"}',
        },
    ),
)
