"""Procler 0.3's config files, read unchanged: every key of its schema, with its meaning."""

from __future__ import annotations

from pathlib import Path

from procler_testkit.config_helpers import errors_of, run_procler, write_config

from procler.config.load import check_config
from procler.config.model import Schedule

# The comprehensive example of Procler 0.3's README, as published. It names a `redis`
# process in `depends_on` and in the backend group without defining one.
SEED_EXAMPLE = """
version: 1

vars:
  API_PORT: "8000"
  DB_CONTAINER: postgres-dev

processes:
  api:
    command: uvicorn main:app --reload --port ${API_PORT}     # Variable substitution
    context: local
    cwd: /path/to/project
    tags: [backend, api]
    description: "API server"
    namespace: backend                                         # Namespace isolation
    ready_log_line: "Uvicorn running on"                      # log_ready condition
    max_memory: 512M                                          # Auto-restart on RSS exceed
    healthcheck:
      http_get: "http://localhost:${API_PORT}/health"         # HTTP probe (built-in)
      interval: 10s
      timeout: 5s
      retries: 3
      start_period: 30s

  worker:
    command: celery worker -A tasks
    replicas: 3                                               # Creates worker-1, -2, -3
    depends_on:
      - redis                                                 # Wait for started (default)
      - name: api
        condition: log_ready                                  # Wait for ready_log_line
      - name: db
        condition: healthy                                    # Wait for health check

  db:
    command: postgres
    healthcheck:
      tcp_socket: "localhost:5432"                            # TCP probe (built-in)
      interval: 5s
      timeout: 3s

  cleanup:
    command: python scripts/cleanup.py
    schedule: "0 */6 * * *"                                   # Cron: every 6 hours

  db-migrate:
    command: alembic upgrade head
    context: docker
    container: ${DB_CONTAINER}                                # Docker execution

groups:
  backend:
    description: "Full backend stack"
    processes: [redis, db, api, worker]
    stop_order: [worker, api, db, redis]                      # Custom stop order

recipes:
  deploy:
    description: "Graceful deployment"
    on_error: stop
    steps:
      - stop: worker
      - stop: api
      - wait: 2s
      - exec: "alembic upgrade head"
        context: docker
        container: ${DB_CONTAINER}
      - start: api
      - start: worker

snippets:
  rebuild:
    command: docker compose build
    description: "Rebuild containers"
    tags: [docker]
"""
REDIS = "\n  redis:\n    command: redis-server\n"


def _with_redis(text: str) -> str:
    return text.replace("\n  cleanup:", REDIS.rstrip("\n") + "\n\n  cleanup:")


def test_the_published_example_points_at_the_process_it_never_defines(project: Path) -> None:
    path = write_config(project, SEED_EXAMPLE)
    assert [(e["line"], e["column"], e["path"], e["message"]) for e in errors_of(path)] == [
        (28, 9, "processes.worker.depends_on[0]", "worker depends on unknown process 'redis'"),
        (53, 17, "groups.backend.processes[0]", "group backend names unknown process 'redis'"),
        (54, 35, "groups.backend.stop_order[3]", "group backend stop_order names unknown process 'redis'"),
    ]  # fmt: skip


def test_the_example_with_redis_is_valid_and_keeps_its_meaning(project: Path) -> None:
    path = write_config(project, _with_redis(SEED_EXAMPLE))
    config, findings = check_config(str(path), {})
    assert (findings.as_dicts(), config is not None) == ([], True)
    assert config is not None
    api, worker, db = config.processes["api"], config.processes["worker-2"], config.processes["db"]
    assert [n for n in config.processes if n.startswith("worker")] == [
        "worker-0",
        "worker-1",
        "worker-2",
    ]  # replicas act now: NAME-0 ... NAME-(N-1) (Procler 0.3 said worker-1 ... worker-3)
    assert (api.namespaces, worker.replica_of, worker.replica) == (("backend",), "worker", 2)
    assert api.healthcheck is not None and api.healthcheck.http is not None
    assert (api.healthcheck.kind, api.healthcheck.http.url) == (
        "http",
        "http://localhost:8000/health",
    )
    assert (api.healthcheck.interval, api.healthcheck.start_period) == (10.0, 30.0)
    assert (api.ready_log_line, api.max_memory, api.tags) == (
        "Uvicorn running on",
        512 << 20,
        ("backend", "api"),
    )
    assert db.healthcheck is not None and db.healthcheck.tcp is not None
    assert (db.healthcheck.kind, db.healthcheck.tcp.host, db.healthcheck.tcp.port) == (
        "tcp",
        "localhost",
        5432,
    )
    assert [(d.name, d.condition) for d in worker.depends_on] == [
        ("redis", "started"),
        ("api", "log_ready"),
        ("db", "healthy"),
    ]
    migrate = config.processes["db-migrate"]
    assert migrate.container_spec is not None
    assert (migrate.context, migrate.container_spec.container, migrate.command) == (
        "docker",
        "postgres-dev",
        "alembic upgrade head",
    )
    assert config.groups["backend"].stop_order == ("worker", "api", "db", "redis")
    deploy = config.recipes["deploy"]
    assert [(s.kind, s.target or s.seconds) for s in deploy.steps] == [
        ("stop", "worker"),
        ("stop", "api"),
        ("wait", 2.0),
        ("exec", "alembic upgrade head"),
        ("start", "api"),
        ("start", "worker"),
    ]
    assert (deploy.steps[3].context, deploy.steps[3].container) == ("docker", "postgres-dev")
    assert config.snippets["rebuild"].tags == ("docker",)
    assert [(w["path"], w["message"]) for w in findings.warning_dicts()] == [
        ("processes.api.max_memory", "max_memory: the whole process tree's resident memory is sampled every 2 s; two samples in a row above the limit restart it (a single spike is forgiven)"),
    ]  # fmt: skip
    assert config.processes["cleanup"].schedule == Schedule(
        cron="0 */6 * * *", written="0 */6 * * *"
    )


def test_validate_and_explain_answer_in_the_seed_shape(project: Path) -> None:
    write_config(project, _with_redis(SEED_EXAMPLE))
    code, answer = run_procler(project, "config", "validate")
    assert (code, answer["data"]["valid"], answer["data"]["summary"]) == (
        0,
        True,
        "6 processes, 1 group, no errors, 1 warning",
    )
    assert [w["line"] for w in answer["data"]["warnings"]] == [16]
    code, answer = run_procler(project, "config", "explain")
    data = answer["data"]
    assert (code, data["process_count"], data["group_count"], data["recipe_count"]) == (0, 6, 1, 1)
    assert data["explanation"] == data["paragraph"]
    assert (
        "Group backend holds redis, db, api and worker (Full backend stack) and stops worker, api, db and redis first."
        in data["paragraph"]
    )
    assert "Recipe deploy runs 6 steps (Graceful deployment)." in data["paragraph"]
    assert "Snippets: rebuild." in data["paragraph"]
    assert "api runs `uvicorn main:app --reload --port 8000`" in data["paragraph"]
    assert (
        "; it runs on the schedule 0 */6 * * *, one run at a time, once armed by `start` or "
        "`up`; a run that fails waits for the next slot." in data["paragraph"]
    )


def test_seed_rules_the_schema_keeps(project: Path) -> None:
    path = write_config(
        project,
        """
        processes:
          a:
            command: serve
            container: box
            adopt_existing: true
          b:
            command: serve
            daemon_mode: true
            healthcheck: {tcp_socket: "localhost:http"}
          c:
            command: serve
            context: docker
            container: box
            docker: {container: other}
        recipes:
          r:
            steps:
              - start: aa
              - group_stop: nope
              - exec: make
                context: docker
              - wait: 2s
                start: a
        snippets:
          s: {command: ls, context: docker}
        """,
    )
    assert [(e["path"], e["message"]) for e in errors_of(path)] == [
        ("processes.a.container", "`container` needs a container context (docker, podman)"),
        ("processes.a.adopt_existing", "adopt_existing needs daemon_mode: true"),
        ("processes.b.daemon_mode", "daemon_mode needs daemon_pidfile or daemon_match_pattern to find the daemon"),
        ("processes.b.healthcheck.tcp_socket", "tcp_socket 'localhost:http' is not HOST:PORT"),
        ("processes.c.container", "`container` and `docker:` both say where the process runs"),
        ("recipes.r.steps[0].start", "start names unknown process 'aa'"),
        ("recipes.r.steps[1].group_stop", "group_stop names unknown group 'nope'"),
        ("recipes.r.steps[2].context", "a step in context docker needs `container`"),
        ("recipes.r.steps[3]", "start and wait exclude each other"),
        ("snippets.s.context", "snippet s has context docker but no container"),
    ]  # fmt: skip
