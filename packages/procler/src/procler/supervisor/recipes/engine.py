"""The supervisor's recipe runs: one run of a recipe at a time, owned by the supervisor (a
client that goes away never stops it), runs a dead supervisor left marked interrupted."""

from __future__ import annotations

import asyncio
import dataclasses
import secrets
from typing import TYPE_CHECKING, Any

from procler import recipe_states as rs
from procler.config.model import Recipe
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
from procler.project import recipe_log_name
from procler.supervisor.recipes.dry_run import plan
from procler.supervisor.recipes.records import RunRecords
from procler.supervisor.recipes.run_record import (
    RunRecord,
    StepRecord,
    definition_hash,
    interrupt,
    new_run,
    step_prefix,
)
from procler.supervisor.recipes.runner import RunControl, execute

if TYPE_CHECKING:
    from procler.supervisor.operations import Operations

LOGGED_LINES = 200  # of the recipe's log read back for an interrupted step
INTERRUPT_WAIT = 5.0  # bound on the runs recording their interruption as the supervisor stops
RUNS_SHOWN = 50  # newest runs `recipe runs` answers


class ActiveRun:
    """A recipe's run going now: its task, its control, and `ended`, resolved once the
    engine has recorded its end (the entry removed): a waiter awaits that, never the task,
    which can be done while the callback that removes the entry is still queued."""

    __slots__ = ("control", "ended", "run_id", "task")

    def __init__(self, run_id: str, task: asyncio.Future[None], control: RunControl) -> None:
        self.run_id = run_id
        self.task = task
        self.control = control
        self.ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()


class RecipeEngine:
    def __init__(self, ops: Operations) -> None:
        self.ops = ops
        self.records = RunRecords(ops.state_store())
        self.active: dict[str, ActiveRun] = {}  # recipe -> its run going now
        self._mark_interrupted()
        ops.before_stop(self.interrupt_all)

    def _mark_interrupted(self) -> None:
        """Runs still `running` in the database belonged to a supervisor that died."""
        for run in map(self._watched, self.records.with_status(rs.RUN_RUNNING)):
            step = next((s for s in run.steps if s.status == rs.RUNNING), None)
            if step is not None:
                step.output = self._logged_output(run, step)
            interrupt(run, step)
            self.records.save(run)

    async def interrupt_all(self) -> None:
        """The supervisor is stopping (daemon stop or restart, a signal): every run going
        on is interrupted at the step it is in, before any process is stopped under it (a
        step would otherwise fail for it), and stays resumable."""
        going = list(self.active.values())
        for active in going:
            active.task.cancel()  # the runner records the run interrupted (runner.execute)
        if going:
            await asyncio.wait([active.task for active in going], timeout=INTERRUPT_WAIT)
        for active in going:
            run = active.control.run
            step = next((s for s in run.steps if s.id == run.interrupted_step), None)
            if run.status == rs.RUN_INTERRUPTED and step is not None:
                step.output = self._logged_output(run, step) or step.output
                self.records.save(run)

    def _logged_output(self, run: RunRecord, step: StepRecord) -> str:
        """What a step printed before its supervisor died, from the recipe's log (where
        exec and snippet steps stream their lines), its last LOGGED_LINES lines."""
        lines = self.ops.logged_lines(
            recipe_log_name(run.recipe), tail=LOGGED_LINES, since=step.started_at
        )
        prefix = step_prefix(step.id)
        return "".join(
            line["text"][len(prefix) :] + "\n" for line in lines if line["text"].startswith(prefix)
        )

    def recipe(self, name: str) -> Recipe:
        recipes = self.ops.config().recipes
        if name not in recipes:
            raise RecipeNotFound.among(name, recipes)
        return recipes[name]

    def listed(self) -> list[dict[str, Any]]:
        """Each recipe of the config: name, description, on_error, number of steps."""
        return [
            {
                "name": r.name,
                "description": r.description,
                "on_error": r.on_error,
                "steps": len(r.steps),
            }
            for r in self.ops.config().recipes.values()
        ]

    def shown(self, name: str) -> dict[str, Any]:
        """A recipe as defined, with the hash a run records."""
        recipe = self.recipe(name)
        return {**dataclasses.asdict(recipe), "definition_hash": definition_hash(recipe)}

    def planned(self, name: str) -> dict[str, Any]:
        """`recipe run --dry-run`: what each step would do now, writing nothing."""
        return plan(self.ops, self.recipe(name))

    def runs(self, name: str | None) -> list[dict[str, Any]]:
        """The newest runs (of one recipe), without their steps."""
        if name:
            self.recipe(name)
        found = self.records.runs(name, RUNS_SHOWN)
        return [{k: v for k, v in r.as_dict().items() if k != "steps"} for r in found]

    def run_record(self, run_id: str) -> RunRecord:
        run = self.records.load(run_id)
        if run is None:
            raise RunNotFound(f"no recipe run {run_id!r}")
        return self._watched(run)

    def _watched(self, run: RunRecord) -> RunRecord:
        """The run, its step moves published on the supervisor's event bus."""
        run.observer = self._publish
        return run

    def _publish(self, run: RunRecord, step: StepRecord, src: str, reason: str) -> None:
        action = f"{step.kind} {step.target}"
        self.ops.publish_recipe_step(
            run.recipe, run.run_id, step.id, action, src, step.status, reason
        )

    async def start_run(self, name: str, detach: bool, wait: bool = False) -> dict[str, Any]:
        recipe = self.recipe(name)
        while wait and name in self.active:  # each pass waits for one run to end
            # not on its task: a done task does not yield, and a run started and ended
            # before this resumed would have this loop spin with the loop blocked
            await asyncio.shield(self.active[name].ended)
        self._refuse_second(name)
        run = new_run(f"{name}-{secrets.token_hex(4)}", recipe, self.ops.clock.time())
        self._watched(run)
        self.records.save(run)
        return await self._launch(recipe, run, detach)

    async def resume_run(
        self, run_id: str, skip: str | None, start: str | None, force: bool, detach: bool
    ) -> dict[str, Any]:
        run = self.run_record(run_id)
        if run.status != rs.RUN_INTERRUPTED:
            raise RunNotResumable(f"run {run_id} is {run.status}, not interrupted")
        recipe = self.recipe(run.recipe)
        self._refuse_second(run.recipe)
        if definition_hash(recipe) != run.definition_hash and not force:
            raise RecipeChanged(
                f"recipe {run.recipe} changed since run {run_id} started",
                data={"run_id": run_id},
            )
        if run.definition_hash != definition_hash(recipe):
            _redefine(run, recipe)
        self._decide(run, skip, start)
        run.move(rs.RUN_RUNNING)
        run.error, run.ended_at = None, None
        self.records.save(run)
        return await self._launch(recipe, run, detach)

    def _decide(self, run: RunRecord, skip: str | None, start: str | None) -> None:
        """Where a resume continues: the first unfinished step, unless told otherwise; an
        interrupted step that is not idempotent needs the user's word."""
        unfinished = [s for s in run.steps if s.status not in rs.FINISHED]
        chosen = skip or start
        if chosen is not None and chosen not in [s.id for s in unfinished]:
            raise RunNotResumable(
                f"{chosen!r} is not an unfinished step of run {run.run_id}",
                suggestion="unfinished steps: " + ", ".join(s.id for s in unfinished),
            )
        if chosen is not None:
            why = f"resume {'--skip-step' if skip else '--from-step'} {chosen}"
            through = [s.id for s in unfinished].index(chosen) + (skip is not None)
            for step in unfinished[:through]:
                run.move_step(step, rs.SKIPPED, why)
            return
        first = run.first_unfinished()
        if first is not None and first.id == run.interrupted_step and not first.idempotent:
            raise StepNotIdempotent(
                f"step {first.id} ({first.kind} {first.target}) was interrupted and is not "
                "idempotent: it may have done part of its work",
                data={"run_id": run.run_id, "step": first.id, "last_output": first.last_lines()},
            )

    def _refuse_second(self, name: str) -> None:
        if name in self.active:
            run_id = self.active[name].run_id
            raise RecipeRunning(
                f"recipe {name} is already running (run {run_id})", data={"run_id": run_id}
            )

    async def _launch(self, recipe: Recipe, run: RunRecord, detach: bool) -> dict[str, Any]:
        control = RunControl(run)
        task = asyncio.ensure_future(execute(self.ops, self.records, recipe, run, control))
        self.active[recipe.name] = ActiveRun(run.run_id, task, control)
        task.add_done_callback(lambda _t: self._finished(recipe.name, run.run_id))
        if detach:
            return {"run_id": run.run_id, "recipe": recipe.name, "status": run.status}
        try:
            await asyncio.shield(task)  # the caller going away leaves the run going
        except asyncio.CancelledError:
            me = asyncio.current_task()
            if not task.cancelled() or (me is not None and me.cancelling()):
                raise
        return answer(run)

    async def cancel_run(self, run_id: str) -> dict[str, Any]:
        """Cancel the step a run is in (an exec: TERM, then KILL); answers the ended run."""
        run = self.run_record(run_id)
        found = next((a for a in self.active.values() if a.run_id == run_id), None)
        if found is None:
            raise RunNotRunning(f"run {run_id} is {run.status}, not running")
        found.control.cancel()
        await asyncio.shield(found.task)
        return self.run_record(run_id).as_dict()

    def _finished(self, name: str, run_id: str) -> None:
        active = self.active.get(name)
        if active is not None and active.run_id == run_id:
            del self.active[name]
            active.ended.set_result(None)


def _redefine(run: RunRecord, recipe: Recipe) -> None:
    """resume --force: the steps as defined now; a step whose id (and kind) the run knows
    keeps its record."""
    known = {s.id: s for s in run.steps}
    run.steps = [
        dataclasses.replace(
            known[f.id], position=f.position, target=f.target, idempotent=f.idempotent
        )
        if f.id in known and known[f.id].kind == f.kind
        else f
        for f in new_run(run.run_id, recipe, run.started_at).steps
    ]
    run.definition_hash = definition_hash(recipe)


def answer(run: RunRecord) -> dict[str, Any]:
    """A finished run's answer; a failed run is RECIPE_FAILED naming the step that failed,
    an interrupted one RECIPE_INTERRUPTED naming the step it was in."""
    data = run.as_dict()
    if run.status == rs.RUN_INTERRUPTED:
        at = f" at step {run.interrupted_step}" if run.interrupted_step else ""
        raise RecipeInterrupted(
            f"recipe {run.recipe} was interrupted{at}: the supervisor stopped during the run",
            suggestion=f"`procler recipe resume {run.run_id}` goes on from there",
            data=data,
        )
    failure = next((s for s in run.steps if s.status == rs.FAILED and not s.ignored_error), None)
    if failure is None:
        return data
    code = "" if failure.exit_code is None else f" (exit {failure.exit_code})"
    lines = "; ".join(failure.last_lines())
    raise RecipeFailed(
        f"recipe {run.recipe} failed at step {failure.id}{code}: {failure.error}"
        + (f" -- last output: {lines}" if lines else ""),
        data=data,
    )
