"""The supervisor's side of the `recipe ...` commands (entries of Handlers.table())."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from procler.supervisor.recipes.dry_run import plan
from procler.supervisor.recipes.engine import RecipeEngine
from procler.supervisor.recipes.run_record import definition_hash

if TYPE_CHECKING:
    from procler.supervisor.commands_api import CommandHandlers

Handler = Callable[[dict[str, Any]], Awaitable[Any]]
RUNS_SHOWN = 50


class RecipeCommands:
    """The recipe commands; the engine is made on first use (it needs the supervisor)."""

    def __init__(self, handlers: CommandHandlers) -> None:
        self.handlers = handlers
        self._engine: RecipeEngine | None = None

    def table(self) -> dict[str, Handler]:
        return {
            "recipe list": self.recipe_list,
            "recipe show": self.recipe_show,
            "recipe run": self.recipe_run,
            "recipe runs": self.recipe_runs,
            "recipe status": self.recipe_status,
            "recipe resume": self.recipe_resume,
            "recipe cancel": self.recipe_cancel,
        }

    def engine(self) -> RecipeEngine:
        if self._engine is None:
            self._engine = RecipeEngine(self.handlers)
        return self._engine

    async def recipe_run(self, values: dict[str, Any]) -> Any:
        if values.get("dry_run"):
            return plan(self.handlers, self.engine().recipe(values["name"]))
        name = values["name"]
        return await self.engine().start_run(
            name, bool(values.get("detach")), bool(values.get("wait"))
        )

    async def recipe_resume(self, values: dict[str, Any]) -> Any:
        return await self.engine().resume_run(
            values["run_id"],
            skip=values.get("skip_step"),
            start=values.get("from_step"),
            force=bool(values.get("force")),
            detach=bool(values.get("detach")),
        )

    async def recipe_list(self, values: dict[str, Any]) -> Any:
        recipes = self.handlers.sup.config().recipes.values()
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

    async def recipe_show(self, values: dict[str, Any]) -> Any:
        recipe = self.engine().recipe(values["name"])
        return {**dataclasses.asdict(recipe), "definition_hash": definition_hash(recipe)}

    async def recipe_runs(self, values: dict[str, Any]) -> Any:
        name = values.get("name")
        if name:
            self.engine().recipe(name)
        found = self.engine().records.runs(name, RUNS_SHOWN)
        return {"runs": [{k: v for k, v in r.as_dict().items() if k != "steps"} for r in found]}

    async def recipe_cancel(self, values: dict[str, Any]) -> Any:
        return await self.engine().cancel_run(values["run_id"])

    async def recipe_status(self, values: dict[str, Any]) -> Any:
        return self.engine().run_record(values["run_id"]).as_dict()
