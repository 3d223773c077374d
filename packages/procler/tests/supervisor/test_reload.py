"""Reload restarts only what changed: the diff is exact, unchanged processes keep their pid,
a broken config is refused whole. In-process supervisor over real processes (test_wait's
`supervise`), and the real CLI for the refusal."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from harness import Project
from reload_helpers import config_file, pids, sleeper
from test_wait import supervise

from procler.supervisor.handlers import Handlers


def config(api: int = 600, db: int = 601, extra: bool = False, gone: bool = True) -> str:
    text = f"""version: 1
processes:
  db:
    args: {sleeper(db)}
  api:
    args: {sleeper(api)}
    depends_on: [db]
  worker:
    args: {sleeper(602)}
    env: {{MODE: fast}}
"""
    if gone:
        text += f"  gone:\n    args: {sleeper(603)}\n"
    if extra:
        text += f"  extra:\n    args: {sleeper(604)}\n"
    return text


def test_reload_restarts_only_the_changed_process_and_answers_the_exact_diff(
    tmp_path: Path,
) -> None:
    path = config_file(tmp_path)

    async def scenario(handlers: Handlers) -> None:
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

    async def scenario(handlers: Handlers) -> None:
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


def test_an_invalid_reload_is_refused_whole_and_nothing_changes(
    make_project: Callable[[str], Project],
) -> None:
    p = make_project(config())
    p.ok("up")
    before = {row["name"]: row["pid"] for row in p.ok("status")["processes"]}
    path = p.root / ".procler" / "config.yaml"
    # api's command changes too, but line 4 carries a bad key: nothing may be applied
    path.write_text(config(api=700).replace("  db:\n", "  db:\n    comand: x\n", 1))
    for args in (("reload",), ("reload", "--dry-run")):
        code, refused = p.run(*args)
        error = refused["data"]["errors"][0]
        assert (code, refused["error_code"], error["line"], error["column"], error["path"]) == (
            2,
            "CONFIG_INVALID",
            4,
            5,
            "processes.db.comand",
        )
    after = {row["name"]: row["pid"] for row in p.ok("status")["processes"]}
    assert after == before
    path.write_text(config(api=700))
    for _ in range(2):  # a dry run takes nothing up: the second one sees the same diff
        dry = p.ok("reload", "--dry-run")
        assert (dry["changed"], dry["dry_run"]) == ([{"name": "api", "fields": ["args"]}], True)
    noticed = p.ok("status", "worker")  # the next command takes the fixed file up
    assert (noticed["pid"], noticed["config_reloaded"]["changed"]) == (
        before["worker"],
        [{"name": "api", "fields": ["args"]}],
    )
    p.ok("reload")  # answers once what the status call took up is applied
    assert p.ok("status", "api")["run"] == 2
