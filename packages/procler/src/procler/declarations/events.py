"""`procler events`: its declaration; its handler (procler.cli.events) reads the
supervisor's event stream over the project's socket."""

from agentcli.commands import Arg, Command
from procler.declarations.processes import SUPERVISED
from procler.errors import ProcessNotFound

EVENTS_COMMANDS: "tuple[Command, ...]" = (
    Command(
        "events",
        "the supervisor's event stream as NDJSON: a snapshot of every process, then status "
        "transitions, health changes, recipe steps and (with --logs) output lines, each with a seq",
        "procler.cli.events:show",
        read_only=True,
        args=(
            Arg(
                "--follow",
                "keep printing new events until --timeout or Ctrl-C",
                type="boolean",
                short="-f",
            ),
            Arg(
                "--since",
                "resume after this seq (a message's seq): the buffered events after it, after "
                "a gap message if some are no longer buffered",
            ),
            Arg(
                "--logs",
                "also the output lines of this process (repeatable, or comma-separated)",
                multiple=True,
            ),
            Arg("--timeout", "with --follow: stop after this long", type="duration", default="30s"),
        ),
        examples=(
            "procler events",
            "procler events --follow --timeout 5m",
            "procler events --follow --since 1764590000000042 --logs api --logs worker",
        ),
        errors=(*SUPERVISED, ProcessNotFound),
        mode="stream",
        output={
            "type": "object",
            "properties": {"messages": {"type": "array", "items": {"type": "object"}}},
            "description": "the CLI prints each message as one NDJSON line instead: "
            "{seq, ts, type: snapshot, processes} first, then status/health {seq, ts, type, "
            "name, from, to, reason}, recipe_step {seq, ts, type, name, run_id, step, "
            "action, from, to, reason}, log {seq, ts, type, name, run, stream, text}, gap {seq, type, "
            "from, to} (events no longer buffered), dropped {seq, type, count, from, to}",
        },
    ),
)
