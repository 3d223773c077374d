"""`procler recipe list|show|run|runs|status|resume|cancel`: the supervisor's side
(procler/cli/recipes.py declares them). Each is one call of the recipe engine
(supervisor/recipes/), which runs the steps through the Operations."""

from __future__ import annotations

from typing import Any

from procler.supervisor.commands.processes import Values
from procler.supervisor.operations import Operations
from procler.supervisor.recipes.engine import RecipeEngine


class Recipes:
    """The recipe engine, made on first use: it marks the runs a dead supervisor left
    interrupted, reading their output from the log store, once the config is loaded."""

    def __init__(self, ops: Operations) -> None:
        self._ops = ops
        self._engine: RecipeEngine | None = None

    def engine(self) -> RecipeEngine:
        if self._engine is None:
            self._engine = RecipeEngine(self._ops)
        return self._engine


async def recipe_list(recipes: Recipes, values: Values) -> Any:
    return {"recipes": recipes.engine().listed()}


async def recipe_show(recipes: Recipes, values: Values) -> Any:
    return recipes.engine().shown(values["name"])


async def recipe_run(recipes: Recipes, values: Values) -> Any:
    engine = recipes.engine()
    if values.get("dry_run"):
        return engine.planned(values["name"])
    return await engine.start_run(
        values["name"], bool(values.get("detach")), bool(values.get("wait"))
    )


async def recipe_runs(recipes: Recipes, values: Values) -> Any:
    return {"runs": recipes.engine().runs(values.get("name"))}


async def recipe_status(recipes: Recipes, values: Values) -> Any:
    return recipes.engine().run_record(values["run_id"]).as_dict()


async def recipe_resume(recipes: Recipes, values: Values) -> Any:
    return await recipes.engine().resume_run(
        values["run_id"],
        skip=values.get("skip_step"),
        start=values.get("from_step"),
        force=bool(values.get("force")),
        detach=bool(values.get("detach")),
    )


async def recipe_cancel(recipes: Recipes, values: Values) -> Any:
    return await recipes.engine().cancel_run(values["run_id"])


COMMANDS = {
    "recipe list": recipe_list,
    "recipe show": recipe_show,
    "recipe run": recipe_run,
    "recipe runs": recipe_runs,
    "recipe status": recipe_status,
    "recipe resume": recipe_resume,
    "recipe cancel": recipe_cancel,
}
