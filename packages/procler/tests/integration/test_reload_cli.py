"""A broken config file refused whole by `procler reload`, through the real CLI."""

from __future__ import annotations

from collections.abc import Callable

from procler_testkit.harness import Project
from procler_testkit.reload_helpers import config


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
