"""Reload restarts only what changed: the diff is exact, unchanged processes keep their pid,
a broken config is refused whole. In-process supervisor over real processes (test_wait's
`supervise`), and the real CLI for the refusal."""

from __future__ import annotations

from pathlib import Path

from procler_testkit.in_process import Commands, Faked, faked, supervise
from procler_testkit.reload_helpers import config, config_file, pids


def test_reload_restarts_only_the_changed_process_and_answers_the_exact_diff(
    tmp_path: Path,
) -> None:
    path = config_file(tmp_path)

    async def scenario(handlers: Commands) -> None:
        await handlers.up({})
        before = pids(handlers)
        gone = handlers.sup.runtimes["gone"]
        path.write_text(config(api=700, extra=True, gone=False))
        answer = await handlers.reload({})
        assert answer == {
            "added": ["extra"],
            "changed": [{"name": "api", "fields": ["args"]}],
            "removed": ["gone"],
            "unchanged": ["db", "worker"],
            "restarted": ["api"],
            "started": ["extra"],  # the stack is up: what the config adds starts
            "armed": [],
            "stopped": ["gone"],
            "failed": [],
            "dry_run": False,
            "processes": ["db", "api", "worker", "extra"],
            "groups": [],
        }
        after = pids(handlers)
        assert {n: after[n] == before[n] for n in ("db", "worker")} == {"db": True, "worker": True}
        assert after["api"] != before["api"]
        assert (handlers.sup.runtimes["api"].status, handlers.sup.runtimes["api"].run) == (
            "running",
            2,
        )
        assert (handlers.sup.runtimes["extra"].status, gone.status) == ("running", "stopped")
        assert "gone" not in handlers.sup.runtimes
        again = await handlers.reload({})  # nothing changed since
        assert (again["changed"], again["unchanged"], again["restarted"]) == (
            [],
            ["db", "api", "worker", "extra"],
            [],
        )
        assert pids(handlers) == after

    supervise(tmp_path, config(), scenario)


def test_changed_processes_restart_in_dependency_order_and_added_ones_start_if_desired(
    tmp_path: Path,
) -> None:
    path = config_file(tmp_path)

    async def scenario(handlers: Commands) -> None:
        await handlers.up({})
        worker = pids(handlers)["worker"]
        handlers.sup.store.save_process("extra", "running", 0, 0, None)  # as a lost run leaves it
        path.write_text(config(api=700, db=701, extra=True))
        dry = await handlers.reload({"dry_run": True})
        assert (dry["changed"], dry["added"], dry["dry_run"]) == (
            [{"name": "db", "fields": ["args"]}, {"name": "api", "fields": ["args"]}],
            ["extra"],
            True,
        )
        assert handlers.sup.runtimes["db"].run == 1  # a dry run applies nothing
        answer = await handlers.reload({})
        assert (answer["restarted"], answer["started"], answer["unchanged"]) == (
            ["db", "api"],
            ["extra"],
            ["worker", "gone"],
        )
        rts = handlers.sup.runtimes
        assert [rts[n].status for n in ("db", "api", "extra")] == ["running"] * 3
        started = {n: rts[n].started_at or 0.0 for n in ("db", "api")}
        assert started["db"] < started["api"]  # api waited for its dependency
        assert pids(handlers)["worker"] == worker

    supervise(tmp_path, config(), scenario)


AUTOSTART = """version: 1
processes:
  web:
    command: serve web
  admin:
    command: serve admin
    autostart: false
"""
# the same two processes, autostart moved from web to admin
SWAPPED = AUTOSTART.replace("serve web\n", "serve web\n    autostart: false\n").replace(
    "serve admin\n    autostart: false\n", "serve admin\n"
)


def test_reload_of_autostart_leaves_the_stack_as_up_of_the_new_config(tmp_path: Path) -> None:
    """A running process now `autostart: false` stops, one that `up` left alone now starts:
    as `down` then `up` of the new config leaves them, and the answer says so."""
    path = tmp_path / "proj" / ".procler" / "config.yaml"

    async def scenario(f: Faked) -> None:
        await f.commands.up({})
        assert f.statuses() == {"web": "running", "admin": "stopped"}
        path.write_text(SWAPPED)
        answer = await f.commands.reload({})
        assert {k: answer[k] for k in ("changed", "restarted", "started", "stopped")} == {
            "changed": [
                {"name": "web", "fields": ["autostart"]},
                {"name": "admin", "fields": ["autostart"]},
            ],
            "restarted": [],
            "started": ["admin"],
            "stopped": ["web"],
        }
        reloaded = f.statuses()
        ready = await f.commands.wait({"all": True, "for": "healthy", "timeout": 5.0})
        assert ready["left_alone"] == ["web"]  # as its new definition says: autostart: false
        await f.commands.down({})
        await f.commands.up({})
        assert reloaded == f.statuses() == {"web": "stopped", "admin": "running"}

    faked(tmp_path, AUTOSTART, scenario)
