"""The shop: a five-process project with four faults, then a developer's requests, as an
agent meets them. The truth about each fault is written down here; every answer is checked
to name it from its JSON alone, and the state after each command is checked too.

Faults: (1) `migrate` waits for `db` only to have started, while `db` needs two seconds to
listen (a race it loses); (2) `api` needs DATABASE_URL, which is not set; (3) `worker`'s log
check waits for a line it never prints; (4) a stray process outside the project holds
`web`'s port. Requests: fix the stack; add a cron job and three worker replicas; a deploy
recipe; read-only HTTP for a teammate; stop everything.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from procler_testkit.harness import PY, Project, alive, supervisors_of, wait_for

SCRIPTS = Path(__file__).parent / "scripts"
SHOP = SCRIPTS / "shop.py"
PGISH = SCRIPTS / "pgish.py"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def stray() -> Iterator[tuple[int, int]]:
    """A process outside the project listening on a port: (its pid, the port)."""
    holder = subprocess.Popen(
        [PY, str(SHOP), "web", "0"], stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    assert holder.stdout is not None
    port = int(holder.stdout.readline().split()[-1])
    yield holder.pid, port
    holder.kill()
    holder.wait()
    holder.stdout.close()


class Shop:
    def __init__(self, tmp_path: Path, web_port: int) -> None:
        self.tmp = tmp_path
        self.db, self.api, self.web = free_port(), free_port(), web_port
        (tmp_path / "db").mkdir()
        self.migrations = tmp_path / "migrations"
        # the faults, each a switch a fix turns
        self.migrate_waits = "started"
        self.database_url = False
        self.worker_line = "worker ready"
        self.worker_replicas = 1
        self.cron = False
        self.recipe = False

    def config(self) -> str:
        env = "    env: {DATABASE_URL: 'postgres://127.0.0.1/shop'}\n" if self.database_url else ""
        replicas = f"    replicas: {self.worker_replicas}\n" if self.worker_replicas > 1 else ""
        text = f"""version: 1
processes:
  db:
    args: [{PY}, {PGISH}, "{self.db}", {self.tmp}/db, "2"]
    stop_signal: SIGINT
    healthcheck: {{tcp: {{port: {self.db}}}, interval: 1s}}
  migrate:
    args: [{PY}, {SHOP}, migrate, "{self.db}", {self.migrations}]
    restart: "no"
    depends_on: [{{name: db, condition: {self.migrate_waits}}}]
  api:
    args: [{PY}, {SHOP}, api, "{self.api}"]
{env}    healthcheck: {{tcp: {{port: {self.api}}}, interval: 1s}}
    depends_on: [{{name: migrate, condition: completed_successfully}}]
  worker:
    args: [{PY}, {SHOP}, worker]
{replicas}    healthcheck: {{log: "{self.worker_line}", interval: 500ms, retries: 2}}
    depends_on: [{{name: db, condition: healthy}}]
  web:
    args: [{PY}, {SHOP}, web, "{self.web}"]
    ports: [{self.web}]
"""
        if self.cron:
            text += f"""  cleanup:
    args: [{PY}, {SHOP}, cleanup]
    schedule: "0 3 * * *"
"""
        if self.recipe:
            text += """recipes:
  deploy:
    steps:
      - stop: api
      - start: api
      - wait_for: {process: api, condition: healthy, timeout: 30s}
"""
        return text

    def write(self, p: Project) -> None:
        path = p.root / ".procler" / "config.yaml"
        path.write_text(self.config())
        stamp = path.stat().st_mtime + 5  # noticed as changed whatever the clock's grain
        os.utime(path, (stamp, stamp))


def rows(p: Project) -> dict[str, dict[str, Any]]:
    return {r["name"]: r for r in p.ok("status")["processes"]}


def test_the_shop(
    make_project: Callable[[str], Project], tmp_path: Path, stray: tuple[int, int]
) -> None:
    stray_pid, stray_port = stray
    shop = Shop(tmp_path, stray_port)
    p = make_project(shop.config())

    # -- the faults, from the answers ----------------------------------------------------
    explained = p.ok("config", "explain")
    assert [(h["process"], h["dependency"]) for h in explained["hints"]] == [("migrate", "db")]
    assert (
        "consider `depends_on: [{name: db, condition: healthy}]`" in explained["hints"][0]["hint"]
    )

    code, up = p.run("up", "--wait", "--timeout", "30s")
    assert (code, up["error_code"]) == (1, "DEPENDENCY_FAILED")
    failures = {f["process"]: f for f in up["data"]["failures"]}
    assert sorted(failures) == ["migrate", "web"]
    # (1) the race: migrate ran before db listened (refused during its start: START_FAILED;
    # a moment later: the status it ended in)
    assert failures["migrate"].get("error_code", "START_FAILED") == "START_FAILED"
    assert failures["migrate"]["last_exit"]["code"] == 1
    assert failures["migrate"]["stderr"] == [f"could not connect to the database on port {shop.db}"]
    assert up["data"]["cause"] == failures["migrate"]
    # (4) the stray port holder, as data
    assert (failures["web"]["error_code"], failures["web"]["port"]) == ("PORT_IN_USE", stray_port)
    assert failures["web"]["holder"]["pid"] == stray_pid
    assert failures["web"]["holder"]["procler_process"] is None
    # (3) the log check that never matches
    worker = p.ok("wait", "worker", "--for", "unhealthy", "--timeout", "30s")
    assert (worker["health"]["kind"], worker["health"]["last_output"]) == (
        "log",
        "no matching line yet",
    )
    assert p.ok("logs", "worker")["lines"][0]["text"] == "worker started"
    state = rows(p)
    assert [(n, r["status"]) for n, r in state.items()] == [
        ("db", "healthy"),
        ("migrate", "failed"),
        ("api", "stopped"),
        ("worker", "unhealthy"),
        ("web", "stopped"),
    ]
    assert alive(stray_pid)  # never ours to stop

    # -- fix the race and the port; (2) shows once api gets to run -----------------------
    shop.migrate_waits, shop.web = "healthy", free_port()
    shop.write(p)
    p.ok("reload")
    code, up = p.run("up", "--wait", "--timeout", "30s")
    assert (code, up["error_code"]) == (1, "START_FAILED")
    assert up["data"]["name"] == "api"
    assert up["data"]["stderr"] == ["DATABASE_URL is not set"]
    assert shop.migrations.read_text() == "migrated\n"

    # -- fix the rest: the stack comes up --------------------------------------------------
    shop.database_url, shop.worker_line = True, "worker started"
    shop.write(p)
    p.ok("reload")
    ready = p.ok("up", "--wait", "--timeout", "30s")
    assert {r["name"]: (r["status"], r["ready"]) for r in ready["processes"]} == {
        "db": ("healthy", True),
        "migrate": ("exited", True),
        "api": ("healthy", True),
        "worker": ("healthy", True),
        "web": ("running", True),
    }
    assert shop.migrations.read_text() == "migrated\n"  # not run again

    # -- a cron job and three worker replicas ---------------------------------------------
    shop.cron, shop.worker_replicas = True, 3
    shop.write(p)
    reloaded = p.ok("reload")
    assert (reloaded["started"], reloaded["armed"], reloaded["stopped"]) == (
        ["worker-0", "worker-1", "worker-2"],
        ["cleanup"],
        ["worker"],
    )
    ready = p.ok("up", "--wait", "--timeout", "30s")
    assert {r["name"]: r["status"] for r in ready["processes"]} == {
        "db": "healthy",
        "migrate": "exited",
        "worker-0": "healthy",
        "worker-1": "healthy",
        "worker-2": "healthy",
        "web": "running",
        "cleanup": "scheduled",
        "api": "healthy",
    }

    # -- a deploy recipe --------------------------------------------------------------------
    shop.recipe = True
    shop.write(p)
    p.ok("reload")
    planned = p.ok("recipe", "run", "deploy", "--dry-run")
    assert planned["steps"][1]["runs_one_shots"] == []
    assert planned["steps"][2]["plan"] == (
        "api will be healthy (after start-2): wait_for healthy will hold at once"
    )
    run = p.ok("recipe", "run", "deploy")
    assert [s["status"] for s in run["steps"]] == ["succeeded"] * 3
    assert shop.migrations.read_text() == "migrated\n"
    assert rows(p)["api"]["status"] == "healthy"

    # -- read-only HTTP for a teammate ------------------------------------------------------
    served = p.ok("serve", "--read-only", "--port", "0")
    assert served["token_allows"].startswith("read only")
    listed = json.loads(
        subprocess.run(
            served["example"], shell=True, capture_output=True, text=True, check=True, timeout=30
        ).stdout
    )
    assert len(listed["data"]["processes"]) == 8
    token = Path(served["token_file"]).read_text().strip()
    refused = subprocess.run(
        [
            "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST",
            "-H", f"Authorization: Bearer {token}", "-H", "Content-Type: application/json",
            "-d", '{"values": {"name": "api"}}', f"{served['url']}/v1/commands/stop",
        ],
        capture_output=True, text=True, check=True, timeout=30,
    )  # fmt: skip
    assert refused.stdout == "403"
    assert rows(p)["api"]["status"] == "healthy"

    # -- stop everything --------------------------------------------------------------------
    down = p.ok("down")
    assert {r["name"]: r["status"] for r in down["processes"]} == {
        "db": "stopped",
        "migrate": "exited",
        "api": "stopped",
        "worker-0": "stopped",
        "worker-1": "stopped",
        "worker-2": "stopped",
        "web": "stopped",
        "cleanup": "stopped",
    }
    p.ok("daemon", "stop")
    assert wait_for(lambda: supervisors_of(p.root) == [])
    assert p.marked_pids() == []
    assert (tmp_path / "db" / "events").read_text().split()[::2][-1] == "clean"
    assert alive(stray_pid)
