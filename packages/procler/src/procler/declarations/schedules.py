"""The schedule commands: their declarations, all answered by the supervisor
(procler.supervisor.commands.schedules); `start` arms a schedule and `stop` pauses it."""

from agentcli.commands import Arg, Column, Command, Table, TableView
from procler.declarations.config import NOTES, STYLES
from procler.declarations.processes import FORWARD, NAME, SUPERVISED
from procler.errors import NotScheduled, ProcessNotFound

SCHEDULED_NAME = Arg("name", "a scheduled process (see `procler schedule list`)", required=True)
ERRORS = (*SUPERVISED, ProcessNotFound, NotScheduled)
SCHEDULE = {
    "type": "object",
    "description": "a process's status with `schedule`: schedule, timezone, overlap, catch_up, "
    "timeout_seconds, paused, next_run, last_run (trigger, slot, started_at, ended_at, "
    "duration_seconds, exit_code, signal, reason), runs, skipped, queued",
}

SCHEDULE_COMMANDS: "tuple[Command, ...]" = (
    Command(
        "schedule list",
        "every scheduled process: next run, last run, runs, skipped (--runs N: its history)",
        FORWARD,
        read_only=True,
        args=(
            NAME,
            Arg("--runs", "also answer this many of the newest runs", type="integer", default=0),
        ),
        examples=("procler schedule list", "procler schedule list backup --runs 10"),
        errors=ERRORS,
        output={"type": "object", "properties": {"schedules": {"type": "array"}}},
        table=TableView(
            Table(
                (
                    Column("name"),
                    Column("status", styles=STYLES + "PROCESS"),
                    Column("schedule"),
                    Column("next run", kind="time"),
                    Column("last run", "last_run.started_at", kind="time"),
                    Column("last result", "last_run.reason", width=40),
                    Column("runs", kind="number"),
                    Column("skipped", kind="number"),
                    Column("paused"),
                ),
                "schedules",
                empty="no scheduled process",
            ),
            notes=NOTES,
        ),
    ),
    Command(
        "schedule run-now",
        "run a scheduled process now (trigger manual; a run going on follows `overlap`)",
        FORWARD,
        idempotent=False,
        args=(
            SCHEDULED_NAME,
            Arg(
                "--timeout",
                "give up waiting for the run to start after this long",
                type="duration",
                default="30s",
            ),
        ),
        examples=("procler schedule run-now backup",),
        errors=ERRORS,
        output={**SCHEDULE, "description": "adds run_now: started, queued, replacing or skipped"},
    ),
    Command(
        "schedule pause",
        "fire no slot until resumed (a run going on is left to end; `stop` also stops it)",
        FORWARD,
        args=(SCHEDULED_NAME,),
        examples=("procler schedule pause backup",),
        errors=ERRORS,
        output={**SCHEDULE, "description": "adds already_paused"},
    ),
    Command(
        "schedule resume",
        "arm a paused schedule again: the next run is its next slot",
        FORWARD,
        args=(SCHEDULED_NAME,),
        examples=("procler schedule resume backup",),
        errors=ERRORS,
        output={**SCHEDULE, "description": "adds already_armed"},
    ),
)
