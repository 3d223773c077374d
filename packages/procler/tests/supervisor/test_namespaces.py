"""Namespaces in process, over the fakes: `up -n` starts a selection and names the
dependencies started outside it; `namespace start`; `namespace stop` leaves what another
namespace needs running. Exact answers and the rows after them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from procler_testkit.in_process import Faked, faked

from procler.errors import NamespaceNotFound

STACK = """version: 1
processes:
  db: {command: db, namespace: data}
  api: {command: api, namespace: web, depends_on: [db]}
  worker: {command: worker, namespace: [jobs], depends_on: [db]}
  report: {command: report, namespace: [jobs, web]}
"""


def statuses(data: dict[str, Any]) -> list[tuple[str, str]]:
    return [(p["name"], p["status"]) for p in data["processes"]]


def test_namespace_selection_and_stop_isolation(tmp_path: Path) -> None:
    async def scenario(f: Faked) -> None:
        up = await f.commands.up({"namespace": "web"})
        assert statuses(up) == [("db", "running"), ("report", "running"), ("api", "running")]
        assert (up["namespaces"], up["outside_namespaces"]) == (["web"], ["db"])
        assert up["warning"] == "started outside the namespaces, as dependencies: db"
        assert statuses(await f.commands.status({"namespace": "jobs"})) == [
            ("worker", "stopped"),
            ("report", "running"),
        ]
        db_pid = (await f.commands.status({"name": "db"}))["pid"]

        jobs = await f.commands.namespace_start({"name": "jobs"})
        assert statuses(jobs) == [("db", "running"), ("report", "running"), ("worker", "running")]
        kept = await f.commands.namespace_stop({"name": "data"})
        assert (kept["processes"], [(k["name"], k["needed_by"]) for k in kept["kept"]]) == (
            [],
            [("db", ["api", "worker"])],
        )
        web = await f.commands.namespace_stop({"name": "web"})
        assert statuses(web) == [("api", "stopped"), ("report", "stopped")]
        db = await f.commands.status({"name": "db"})
        assert (db["status"], db["pid"], f.rt("worker").status) == ("running", db_pid, "running")
        assert statuses(await f.commands.namespace_stop({"name": "jobs,data"})) == [
            ("worker", "stopped"),
            ("db", "stopped"),
            ("report", "stopped"),
        ]
        assert set(f.statuses().values()) == {"stopped"}
        assert len(f.context.started) == 4

        with pytest.raises(NamespaceNotFound) as caught:
            await f.commands.up({"namespace": "nope"})
        assert (caught.value.code, caught.value.exit_code) == ("NAMESPACE_NOT_FOUND", 2)

    faked(tmp_path, STACK, scenario)
