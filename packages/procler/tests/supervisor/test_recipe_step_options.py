"""Recipe step options in process, over the fakes: retries (their delays on the
supervisor's clock), `when` on an earlier step's outcome or a process's status, snippet
steps with their arguments filled in."""

from __future__ import annotations

from pathlib import Path

from procler_testkit.in_process import Faked, faked
from procler_testkit.scripted import Ran, ScriptedContext, refusal

CONFIG = """
version: 1
processes:
  api:
    command: serve api
snippets:
  echo:
    command: "echo @{word} @{n}"
    args: {n: {type: integer}}
recipes:
  flaky:
    steps:
      - id: try
        exec: "./try"
        retries: 3
        retry_delay: 10ms
  guarded:
    on_error: stop
    steps:
      - id: migrate
        exec: "./migrate"
      - start: api
      - id: rollback
        when: {step: migrate, outcome: failed}
        snippet: echo
        args: {word: "undo; it", n: "2"}
      - id: only-if-up
        when: {process: api, status: running}
        exec: "echo up"
"""


def test_a_step_is_retried_until_it_succeeds_after_doubling_delays(tmp_path: Path) -> None:
    tries = [Ran(("try 1",), exit_code=1), Ran(("try 2",), exit_code=1), Ran(("try 3",))]

    async def scenario(f: Faked[ScriptedContext]) -> None:
        before = len(f.clock.sleeps)
        run = await f.commands.recipe_run({"name": "flaky"})
        step = run["steps"][0]
        assert (step["status"], step["attempts"], step["output"]) == ("succeeded", 3, "try 3\n")
        assert f.context.commands == ["./try"] * 3
        assert f.clock.sleeps[before:] == [0.01, 0.02]  # retry_delay, doubled

    faked(tmp_path, CONFIG, scenario, ScriptedContext({"./try": tries}))


def test_when_runs_a_cleanup_after_a_failure_and_skips_what_does_not_hold(
    tmp_path: Path,
) -> None:
    script = {"./migrate": Ran(exit_code=1), "echo 'undo; it' 2": Ran(("undo; it 2",))}

    async def scenario(f: Faked[ScriptedContext]) -> None:
        err = await refusal(f.commands.recipe_run({"name": "guarded"}))
        assert (err.code, err.exit_code) == ("RECIPE_FAILED", 1)
        steps = err.data["steps"]
        assert [(s["id"], s["kind"], s["status"], s["output"]) for s in steps] == [
            ("migrate", "exec", "failed", ""),
            ("start-2", "start", "skipped", ""),
            ("rollback", "snippet", "succeeded", "undo; it 2\n"),
            ("only-if-up", "exec", "skipped", "when does not hold: api is stopped"),
        ]
        assert steps[2]["idempotent"] is False
        # the snippet's argument quoted as one word; the skipped steps ran nothing
        assert (f.context.commands, f.context.names) == (["./migrate", "echo 'undo; it' 2"], [])
        assert f.statuses() == {"api": "stopped"}

    faked(tmp_path, CONFIG, scenario, ScriptedContext(script))
