"""`autostart: false` in process, over the fakes: `up`, `start --all`, `wait --all` and
group starts leave such a process alone unless one they start depends on it; `start NAME`
and naming its namespace start it; `status` and `why` say why it does not run."""

from __future__ import annotations

from pathlib import Path

from procler_testkit.in_process import Faked, faked

CONFIG = """version: 1
processes:
  db: {command: db, autostart: false}
  api: {command: api, depends_on: [db]}
  tool: {command: tool, autostart: false}
  debugger: {command: debugger, autostart: false, namespace: debug}
groups:
  tools: {processes: [tool]}
"""


def test_up_and_group_start_leave_autostart_false_alone(tmp_path: Path) -> None:
    async def scenario(f: Faked) -> None:
        up = await f.commands.up({})
        # db: api needs it
        assert [(r["name"], r["status"]) for r in up["processes"]] == [
            ("db", "running"),
            ("api", "running"),
        ]
        assert f.statuses() == {
            "db": "running",
            "api": "running",
            "tool": "stopped",
            "debugger": "stopped",
        }
        tool = await f.commands.status({"name": "tool"})
        assert tool["why"] == (
            "autostart: false: up, ci, start --all and group starts leave tool alone unless a "
            "process they start depends on it; `procler start tool` starts it"
        )
        why = await f.commands.why({"name": "tool"})
        assert why["why"].startswith("tool is stopped: autostart: false")
        ready = await f.commands.wait({"all": True, "for": "healthy", "timeout": 30.0})
        assert ([r["name"] for r in ready["processes"]], ready["left_alone"]) == (
            ["db", "api"],
            ["tool", "debugger"],
        )
        assert (await f.commands.group_start({"name": "tools"}))["processes"] == []
        every = await f.commands.start({"all": True})
        assert [(r["name"], r["already_running"]) for r in every["processes"]] == [("api", True)]
        assert (f.rt("tool").status, len(f.context.started)) == ("stopped", 2)
        named = await f.commands.up({"namespace": "debug"})  # its namespace named
        assert [(r["name"], r["status"]) for r in named["processes"]] == [("debugger", "running")]
        started = await f.commands.start({"name": "tool"})
        assert (started["status"], f.rt("tool").status) == ("running", "running")
        assert (await f.commands.status({"name": "tool"}))["why"] is None
        waited = await f.commands.wait({"all": True, "for": "healthy", "timeout": 30.0})
        assert waited["left_alone"] == []  # tool and debugger run
        assert set(f.statuses().values()) == {"running"}
        assert len(f.context.started) == 4

    faked(tmp_path, CONFIG, scenario)
