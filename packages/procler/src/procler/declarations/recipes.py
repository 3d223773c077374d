"""The recipe commands: their declarations. The supervisor runs and records every run
(procler.supervisor.recipes), so each is forwarded to it."""

from agentcli.commands import Arg, Column, Command, Table, TableView
from procler import recipe_states as rs
from procler.declarations.config import NOTES, STYLES
from procler.declarations.processes import FORWARD, GROUP_ERRORS, SUPERVISED
from procler.errors import (
    RecipeChanged,
    RecipeFailed,
    RecipeInterrupted,
    RecipeNotFound,
    RecipeRunning,
    RunNotFound,
    RunNotResumable,
    RunNotRunning,
    StepNotIdempotent,
)

RECIPE = Arg("name", "recipe name (see `procler recipe list`)", required=True)
RUN_ID = Arg("run_id", "a run's id (see `procler recipe runs`)", required=True, metavar="RUN_ID")
DETACH = Arg("--detach", "answer the run id at once; the run goes on", type="boolean")
REPLY = Arg(
    "--timeout",
    "how long to wait for the answer (the run itself goes on past it)",
    type="duration",
    default="10m",
)
STEP = {
    "type": "object",
    "description": "position, id, kind, target, idempotent, "
    f"status ({', '.join(rs.STEP_STATUSES)}), started_at, ended_at, exit_code, output "
    "(capped), truncated, error, ignored_error",
}
RUN = {
    "type": "object",
    "description": f"run_id, recipe, definition_hash, status ({', '.join(rs.RUN_STATUSES)}: "
    "see `terms` in `procler capabilities`), started_at, ended_at, error, interrupted_step, "
    "steps",
    "properties": {"steps": {"type": "array", "items": STEP}},
}
RUN_ERRORS = (*GROUP_ERRORS, RecipeNotFound, RecipeRunning, RecipeFailed, RecipeInterrupted)
RUN_COLUMNS = (
    Column("run id", "run_id"),
    Column("recipe"),
    Column("status", styles=STYLES + "RECIPE"),
    Column("started", "started_at", kind="time"),
    Column("ended", "ended_at", kind="time"),
    Column("error", width=60),
)

RECIPE_COMMANDS: "tuple[Command, ...]" = (
    Command(
        "recipe list",
        "the recipes defined in the config",
        FORWARD,
        examples=("procler recipe list",),
        errors=SUPERVISED,
        read_only=True,
        output={"type": "object", "properties": {"recipes": {"type": "array"}}},
    ),
    Command(
        "recipe show",
        "one recipe as resolved: its steps (vars substituted) and its definition hash",
        FORWARD,
        args=(RECIPE,),
        examples=("procler recipe show deploy",),
        errors=(*SUPERVISED, RecipeNotFound),
        read_only=True,
        output={"type": "object", "description": "name, description, on_error, steps"},
    ),
    Command(
        "recipe run",
        "run a recipe in the supervisor, recording every step; answers once it ends (exit 1 "
        "with RECIPE_FAILED naming the failed step) or, with --detach, its run id at once",
        FORWARD,
        args=(
            RECIPE,
            DETACH,
            Arg(
                "--wait",
                "if a run of this recipe is going on, wait for it to end, then run",
                type="boolean",
            ),
            Arg(
                "--dry-run",
                "the plan: the steps played in order on a model of the stack, each with what "
                "it would do after the steps before it (and runs_one_shots: the one-shots a "
                "start would run); runs and writes nothing",
                type="boolean",
            ),
            REPLY,
        ),
        idempotent=False,
        destructive=True,
        examples=(
            "procler recipe run deploy",
            "procler recipe run deploy --dry-run",
            "procler recipe run deploy --detach",
        ),
        errors=RUN_ERRORS,
        output=RUN,
    ),
    Command(
        "recipe resume",
        "continue an interrupted run from its first unfinished step; an interrupted step "
        "runs again only if idempotent (else STEP_NOT_IDEMPOTENT: pick --skip-step or "
        "--from-step); a recipe changed since the run began needs --force",
        FORWARD,
        args=(
            RUN_ID,
            Arg("--skip-step", "mark this unfinished step skipped and go on after it"),
            Arg("--from-step", "go on from this unfinished step, skipping those before it"),
            Arg(
                "--force", "resume although the recipe changed since the run began", type="boolean"
            ),
            DETACH,
            REPLY,
        ),
        idempotent=False,
        destructive=True,
        examples=(
            "procler recipe resume deploy-1a2b3c4d",
            "procler recipe resume deploy-1a2b3c4d --skip-step migrate",
        ),
        errors=(
            *RUN_ERRORS,
            RunNotFound,
            RunNotResumable,
            StepNotIdempotent,
            RecipeChanged,
        ),
        output=RUN,
    ),
    Command(
        "recipe cancel",
        "cancel a running run: its current step is stopped (an exec: TERM, then KILL), the "
        "rest cancelled; answers the run once it ended",
        FORWARD,
        args=(RUN_ID, REPLY),
        idempotent=False,
        destructive=True,
        examples=("procler recipe cancel deploy-1a2b3c4d",),
        errors=(*SUPERVISED, RunNotFound, RunNotRunning),
        output=RUN,
    ),
    Command(
        "recipe runs",
        "the recorded runs (of one recipe, or of all), newest first, without their steps",
        FORWARD,
        args=(Arg("name", "only the runs of this recipe"),),
        examples=("procler recipe runs", "procler recipe runs deploy"),
        errors=(*SUPERVISED, RecipeNotFound),
        read_only=True,
        output={"type": "object", "properties": {"runs": {"type": "array", "items": RUN}}},
        table=TableView(Table(RUN_COLUMNS, "runs", empty="no run recorded"), notes=NOTES),
    ),
    Command(
        "recipe status",
        "one run with every step's record (status, times, exit code, output, error)",
        FORWARD,
        args=(RUN_ID,),
        examples=("procler recipe status deploy-1a2b3c4d",),
        errors=(*SUPERVISED, RunNotFound),
        read_only=True,
        output=RUN,
        table=TableView(
            Table(RUN_COLUMNS),
            Table(
                (
                    Column("step", "id"),
                    Column("kind"),
                    Column("target", width=30),
                    Column("status", styles=STYLES + "RECIPE"),
                    Column("attempts", kind="number"),
                    Column("started", "started_at", kind="time"),
                    Column("ended", "ended_at", kind="time"),
                    Column("result", "error|output", width=60),
                ),
                "steps",
                title="steps",
            ),
            notes=NOTES,
        ),
    ),
)
