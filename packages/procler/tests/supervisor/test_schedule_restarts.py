"""`restart --all` and `namespace restart` of a stack with a schedule, in process over the
fakes. They waited out their whole --timeout (30 s by default) in any project with a
schedule, as if an armed schedule never became ready. Restarting a scheduled process arms
it and runs it now: the answer comes once every start has settled, and says the job is
`scheduled` when its run ended within the start grace, `running` when it goes on (which
real processes decided by their speed: the test of this with the real CLI failed under
load, a `python -c pass` outlasting the 0.15 s grace)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from procler_testkit.fakes import FakeProcess
from procler_testkit.in_process import Faked, faked
from procler_testkit.scripted import ScriptedContext

from procler import states
from procler.contexts.base import ExitInfo

CONFIG = """version: 1
processes:
  web:
    command: serve web
  cleanup:
    command: ./cleanup
    schedule: "0 3 * * *"
"""
QUICK, GOES_ON = ExitInfo(0), None  # a run of cleanup: ends at once, or until stopped


def statuses(answer: dict[str, Any]) -> dict[str, str]:
    return {p["name"]: p["status"] for p in answer["processes"]}


def test_restarts_of_a_stack_with_a_schedule_answer_when_done_not_after_their_timeout(
    tmp_path: Path,
) -> None:
    context = ScriptedContext(runs={"cleanup": [QUICK, QUICK, GOES_ON]})

    async def scenario(f: Faked[ScriptedContext]) -> None:
        await f.commands.up({})
        assert f.statuses() == {"web": "running", "cleanup": "scheduled"}
        for command, values in (
            ("restart", {"all": True}),
            ("namespace restart", {"name": "default"}),
        ):
            began = f.clock.monotonic()
            answer = await f.commands.call(command, values)
            # answered when web's start settled: its start grace, not the 30 s timeout
            assert (statuses(answer), round(f.clock.monotonic() - began, 6)) == (
                {"web": "running", "cleanup": "scheduled"},
                states.START_GRACE,
            )
            assert f.statuses() == {"web": "running", "cleanup": "scheduled"}
        # a run of the job that outlasts the start grace: answered running, as soon
        began = f.clock.monotonic()
        answer = await f.commands.restart({"all": True})
        assert (statuses(answer), round(f.clock.monotonic() - began, 6)) == (
            {"web": "running", "cleanup": "running"},
            states.START_GRACE,
        )
        cleanup = f.rt("cleanup")
        assert isinstance(cleanup.proc, FakeProcess)
        f.context.runs["cleanup"].append(None)
        cleanup.proc.end(QUICK)
        await f.until(lambda: f.statuses()["cleanup"] == "scheduled")
        assert f.context.names.count("cleanup") == 3
        listed = await f.commands.schedule_list({"runs": 5})
        assert [(r["trigger"], r["exit_code"]) for r in listed["schedules"][0]["history"]] == [
            ("manual", 0),
            ("manual", 0),
            ("manual", 0),
        ]

    faked(tmp_path, CONFIG, scenario, context)
