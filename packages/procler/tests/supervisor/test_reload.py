"""Reload restarts only what changed: the diff is exact, unchanged processes keep their pid,
a broken config is refused whole. In-process supervisor over real processes (test_wait's
`supervise`), and the real CLI for the refusal."""

from __future__ import annotations

from pathlib import Path

from procler_testkit.in_process import Commands, supervise
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
