"""An agent that read only Procler's SKILL.md: every workflow it gives, run as written with
the real `procler` against real processes, does what it says (every step exit 0, and the
processes are in the state the goal names)."""

from __future__ import annotations

import os
import shlex
import socket
import subprocess
from pathlib import Path

from procler_testkit.harness import PROCLER, PY, Project

from agentcli.testing import skill_workflows

SKILL = Path(__file__).resolve().parents[4] / "skills" / "procler" / "SKILL.md"
CONFIG = f"""
version: 1
processes:
  api:
    command: {PY} -c "import time; print('api up', flush=True); time.sleep(600)"
    healthcheck: {{test: "{PY} -c pass", interval: 1s}}
recipes:
  deploy:
    steps:
      - stop: api
      - start: api
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def step(root: Path, line: str, env: dict[str, str]) -> int:
    words = shlex.split(line)
    assert words[0] == "procler"
    done = subprocess.run(
        [PROCLER, *words[1:]], cwd=root, capture_output=True, text=True, timeout=180, env=env
    )
    assert done.stdout.count("\n") == 1, (line, done.stdout, done.stderr)
    return done.returncode


def test_every_workflow_of_the_skill_runs_as_written(tmp_path: Path) -> None:
    flows = dict(skill_workflows(SKILL.read_text("utf-8")))
    assert len(flows) >= 6
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROCLER_")}
    fresh = Project(tmp_path / "fresh", "")  # "start a project from nothing": no config yet
    (fresh.root / ".procler" / "config.yaml").unlink()
    project = Project(tmp_path / "proj", CONFIG)
    (project.root / "app.log").write_text("")
    try:
        env_fresh = {**env, "PORT": str(free_port())}  # the template's web server listens on it
        for line in flows.pop("start a project from nothing"):
            assert step(fresh.root, line, env_fresh) == 0, line
        assert fresh.ok("status", "web")["status"] in ("running", "healthy")
        for goal, lines in flows.items():
            for line in lines:
                assert step(project.root, line, env) == 0, (goal, line)
            if goal.startswith("restart one process"):
                assert project.ok("status", "api")["status"] == "healthy"
            if goal.startswith("add a process"):
                assert project.ok("status", "tail")["status"] == "running"
            if goal.startswith("run a deploy recipe"):
                assert project.ok("status", "api")["status"] in ("running", "healthy")
                assert project.ok("recipe", "runs")["runs"][0]["status"] == "succeeded"
            if goal.startswith("let someone read"):
                assert project.ok("serve", "--read-only", "--port", "0")["already_listening"]
        assert project.run("daemon", "status")[1]["data"]["running"] is False
    finally:
        fresh.close()
        project.close()
