"""The supervisor's side of the `recipe ...` commands (entries of Handlers.table())."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from procler.supervisor.recipes.engine import RecipeEngine
from procler.supervisor.recipes.model import definition_hash
from procler.supervisor.recipes.plan import plan

if TYPE_CHECKING:
    from procler.supervisor.commands_api import CommandHandlers

Handler = Callable[[dict[str, Any]], Awaitable[Any]]
RUNS_SHOWN = 50


def recipe_table(handlers: CommandHandlers) -> dict[str, Handler]:
    """The recipe commands; the engine is made on first use (it needs the supervisor)."""
    engines: list[RecipeEngine] = []

    def engine() -> RecipeEngine:
        if not engines:
            engines.append(RecipeEngine(handlers))
        return engines[0]

    async def run(values: dict[str, Any]) -> Any:
        if values.get("dry_run"):
            return plan(handlers, engine().recipe(values["name"]))
        name = values["name"]
        return await engine().run(name, bool(values.get("detach")), bool(values.get("wait")))

    async def resume(values: dict[str, Any]) -> Any:
        return await engine().resume(
            values["run_id"],
            skip=values.get("skip_step"),
            start=values.get("from_step"),
            force=bool(values.get("force")),
            detach=bool(values.get("detach")),
        )

    async def listing(values: dict[str, Any]) -> Any:
        recipes = handlers.sup.config().recipes.values()
        return {
            "recipes": [
                {
                    "name": r.name,
                    "description": r.description,
                    "on_error": r.on_error,
                    "steps": len(r.steps),
                }
                for r in recipes
            ]
        }

    async def show(values: dict[str, Any]) -> Any:
        recipe = engine().recipe(values["name"])
        return {**dataclasses.asdict(recipe), "definition_hash": definition_hash(recipe)}

    async def runs(values: dict[str, Any]) -> Any:
        name = values.get("name")
        if name:
            engine().recipe(name)
        found = engine().records.runs(name, RUNS_SHOWN)
        return {"runs": [{k: v for k, v in r.as_dict().items() if k != "steps"} for r in found]}

    async def cancel(values: dict[str, Any]) -> Any:
        return await engine().cancel(values["run_id"])

    async def status(values: dict[str, Any]) -> Any:
        return engine().run_record(values["run_id"]).as_dict()

    return {
        "recipe list": listing,
        "recipe show": show,
        "recipe run": run,
        "recipe runs": runs,
        "recipe status": status,
        "recipe resume": resume,
        "recipe cancel": cancel,
    }
