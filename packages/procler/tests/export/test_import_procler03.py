"""import procler03: the canonical spelling, comments kept, the same resolved processes."""

from __future__ import annotations

from pathlib import Path

from procler_testkit.config_helpers import run_procler

from procler.config.load import check_config

SEED = """\
# our stack, as Procler 0.3 wrote it
version: 1
processes:
  db:
    context: docker
    container: postgres-dev   # started and stopped by name
  api:
    command: uvicorn main:app --port 8000
    depends_on: [db]
    healthcheck:
      http_get: "http://127.0.0.1:8000/health"   # the probe
      interval: 5s
  cache:
    command: redis-server --port 6390
    healthcheck:
      tcp_socket: "127.0.0.1:6390"
  jobs:
    command: run-jobs
    healthcheck: {test: "pgrep run-jobs"}
"""

CANONICAL = """\
# our stack, as Procler 0.3 wrote it
version: 1
processes:
  db:
    context: docker
    docker:                   # started and stopped by name
      container: postgres-dev
  api:
    command: uvicorn main:app --port 8000
    depends_on: [db]
    healthcheck:
      http:                                      # the probe
        url: http://127.0.0.1:8000/health
      interval: 5s
  cache:
    command: redis-server --port 6390
    healthcheck:
      tcp:
        host: 127.0.0.1
        port: 6390
  jobs:
    command: run-jobs
    healthcheck: {exec: pgrep run-jobs}
"""


def test_a_procler03_config_becomes_the_canonical_form_with_its_comments(project: Path) -> None:
    source = project / "procler03.yaml"
    source.write_text(SEED)
    code, env = run_procler(project, "import", "procler03", "procler03.yaml")
    assert code == 0
    assert env["data"]["processes"] == ["db", "api", "cache", "jobs"]
    written = project / ".procler" / "config.yaml"
    assert written.read_text() == CANONICAL
    before, _ = check_config(str(source), {}, with_runtime=False)
    after, findings = check_config(str(written), {}, with_runtime=False)
    assert findings.as_dicts() == []
    assert before is not None and after is not None
    assert after.processes == before.processes


def test_an_invalid_procler03_config_exits_2_with_its_errors(project: Path) -> None:
    (project / "bad.yaml").write_text("processes:\n  web: {comand: serve}\n")
    code, env = run_procler(project, "import", "procler03", "bad.yaml")
    assert (code, env["error_code"]) == (2, "INVALID_INPUT")
    assert "processes.web.comand" in [e["path"] for e in env["data"]["errors"]]
    assert not (project / ".procler").exists()
