"""`procler history`: its declaration. A running supervisor answers it
(procler.supervisor.history); without one it is read from the state on disk."""

from agentcli.commands import Arg, Column, Command, Table, TableView
from procler.declarations.config import NOTES, STYLES
from procler.declarations.processes import FROM_DISK, IF_RUNNING, SUPERVISED

MOVE = "{at, run, from, to, reason}"
HISTORY = {
    "type": "object",
    "description": "name, then three lists, each newest first and at most --limit long: exits "
    "(each value last_exit took: {run, started_at, ended_at, duration_seconds, exit_code, "
    "signal, reason}; run null when a start failed), health (the health verdict's moves: "
    f"{MOVE}), transitions (status changes, and notes where from == to: {MOVE}); a process "
    "with replicas: {name, instances: [one per instance]}",
    "properties": {
        "name": {"type": "string"},
        "exits": {"type": "array"},
        "health": {"type": "array"},
        "transitions": {"type": "array"},
        "instances": {"type": "array"},
    },
}


def _moves(styles: "str") -> "tuple[Column, ...]":
    return (
        Column("at", kind="time"),
        Column("run", kind="number"),
        Column("from", styles=styles),
        Column("to", styles=styles),
        Column("reason", width=60),
    )


HISTORY_TABLE = TableView(
    Table(
        (
            Column("ended", "ended_at", kind="time"),
            Column("run", kind="number"),
            Column("exit code", kind="number"),
            Column("signal", kind="number"),
            Column("ran for", "duration_seconds", kind="seconds"),
            Column("reason", width=60),
        ),
        "exits",
        title="exits",
        empty="no run has ended",
    ),
    Table(_moves(STYLES + "HEALTH"), "health", title="health", empty="no health check has run"),
    Table(_moves(STYLES + "PROCESS"), "transitions", title="transitions"),
    each="instances",
    notes=NOTES,
)

HISTORY_COMMANDS: "tuple[Command, ...]" = (
    Command(
        "history",
        "what happened to a process, newest first: how its last runs ended (exit code, "
        "signal, reason, start and end), its health history, its status transitions",
        IF_RUNNING,
        read_only=True,
        args=(
            Arg("name", "process name (a process with replicas: each instance)", required=True),
            Arg("--limit", "at most this many of each (1 to 1000)", type="integer", default=10),
        ),
        examples=("procler history api", "procler history worker --limit 50"),
        errors=(*SUPERVISED, *FROM_DISK),
        output=HISTORY,
        table=HISTORY_TABLE,
    ),
)
