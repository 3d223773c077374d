"""Every field is parsed, substituted and resolved into the model exactly."""

from __future__ import annotations

from pathlib import Path

from procler_testkit.config_helpers import write_config

from procler.config.load import check_config
from procler.config.model import (
    Backoff,
    ContainerSpec,
    Dependency,
    EnvFile,
    Group,
    HealthCheck,
    HttpProbe,
    LogSettings,
    ProcessSpec,
    ProjectConfig,
    RestartPolicy,
    TcpProbe,
)

FULL = """
version: 1
vars:
  PORT: "8000"
  HOST: ${BIND_HOST:-127.0.0.1}
  DATA: data/${USER_NAME}
processes:
  db:
    args: [postgres, -D, "${DATA}", -p, "5432"]
    cwd: ${DATA}
    env_file: db.env
    env:
      PGPORT: "5432"
      SHARED: from-env-map
    description: the database
    tags: [storage, core]
    ports: [5432]
    stop_signal: SIGINT
    stop_timeout: 1m30s
    restart:
      policy: always
      max_restarts: 3
      backoff: {initial: 500ms, max: 1m, reset_after: 2m}
    success_exit_codes: [0, 143]
    healthcheck:
      tcp: {}
      interval: 2s
      timeout: 1s
      retries: 5
      start_period: 10s
      restart_on_unhealthy: true
  api:
    command: uvicorn app:app --host ${HOST} --port ${PORT} --root '$${ROOT}' $HOME
    env: {URL: "http://${HOST}:${PORT}", EMPTY: "${MISSING:-}"}
    restart: no
    healthcheck:
      http: {port: 8000, path: health, method: HEAD, expect_status: "200-204", headers: {X-Probe: "1"}}
    depends_on:
      - {name: db, condition: healthy}
  cache:
    context: docker
    docker: {image: "redis:7", volumes: ["/tmp/r:/data"]}
    healthcheck:
      exec: redis-cli -p ${PORT} ping
  migrate:
    command: ./migrate.sh
    restart: {policy: "no"}
    healthcheck: {log: 'migrated \\d+ tables', interval: 500ms}
    depends_on: [db, cache]
  web:
    command: npm start
    depends_on: [{name: migrate, condition: completed_successfully}]
    healthcheck:
      http: {url: "http://${HOST}:${PORT}/"}
groups:
  backend:
    processes: [db, api]
    description: the API and its database
  all: {processes: [web]}
logs:
  max_size: 2MB
  max_files: 3
"""


def load(root: Path, text: str) -> ProjectConfig:
    (root / "db.env").write_text(
        "# comment\nexport SHARED=from-file\nFROM_FILE='single $quoted'\nDOUBLE=\"a\\nb\"\n",
        encoding="utf-8",
    )
    path = write_config(root, text)
    config, findings = check_config(str(path), {"USER_NAME": "ada"})
    assert findings.as_dicts() == []
    assert config is not None
    return config


def test_every_field_is_parsed_and_substituted(project: Path) -> None:
    config = load(project, FULL)
    root = str(project)
    assert config.root == project
    assert config.config_path == project / ".procler" / "config.yaml"
    assert config.vars == (("PORT", "8000"), ("HOST", "127.0.0.1"), ("DATA", "data/ada"))
    assert list(config.processes) == ["db", "api", "cache", "migrate", "web"]
    assert config.processes["db"] == ProcessSpec(
        name="db",
        args=("postgres", "-D", "data/ada", "-p", "5432"),
        cwd=f"{root}/data/ada",
        env=(
            ("SHARED", "from-env-map"),
            ("FROM_FILE", "single $quoted"),
            ("DOUBLE", "a\nb"),
            ("PGPORT", "5432"),
        ),
        env_files=(
            EnvFile(
                f"{root}/db.env",
                (("SHARED", "from-file"), ("FROM_FILE", "single $quoted"), ("DOUBLE", "a\nb")),
                plain=False,  # "a\nb" is an escape: not every env-file reader takes it
            ),
        ),
        description="the database",
        tags=("storage", "core"),
        ports=(5432,),
        stop_signal="INT",
        stop_timeout=90.0,
        restart=RestartPolicy("always", 3, Backoff(initial=0.5, max=60.0, reset_after=120.0)),
        success_exit_codes=(0, 143),
        healthcheck=HealthCheck(
            kind="tcp",
            tcp=TcpProbe(port=5432),
            interval=2.0,
            timeout=1.0,
            retries=5,
            start_period=10.0,
            restart_on_unhealthy=True,
        ),
    )
    assert config.processes["api"] == ProcessSpec(
        name="api",
        command="uvicorn app:app --host 127.0.0.1 --port 8000 --root '${ROOT}' $HOME",
        cwd=root,
        env=(("URL", "http://127.0.0.1:8000"), ("EMPTY", "")),
        restart=RestartPolicy("no"),
        healthcheck=HealthCheck(
            kind="http",
            http=HttpProbe(
                url="http://127.0.0.1:8000/health",
                method="HEAD",
                expect_status=(200, 204),
                headers=(("X-Probe", "1"),),
            ),
        ),
        depends_on=(Dependency("db", "healthy"),),
    )
    assert config.processes["cache"] == ProcessSpec(
        name="cache",
        cwd=root,
        context="docker",
        container_spec=ContainerSpec(image="redis:7", volumes=("/tmp/r:/data",)),
        healthcheck=HealthCheck(kind="exec", exec="redis-cli -p 8000 ping"),
    )
    assert config.processes["migrate"].restart == RestartPolicy("no")
    assert config.processes["migrate"].healthcheck == HealthCheck(
        kind="log", log=r"migrated \d+ tables", interval=0.5
    )
    assert config.processes["migrate"].depends_on == (Dependency("db"), Dependency("cache"))
    assert config.processes["web"].depends_on == (Dependency("migrate", "completed_successfully"),)
    assert config.processes["web"].healthcheck == HealthCheck(
        kind="http", http=HttpProbe(url="http://127.0.0.1:8000/")
    )
    assert config.groups == {
        "backend": Group("backend", ("db", "api"), "the API and its database"),
        "all": Group("all", ("web",)),
    }
    assert config.logs == LogSettings(max_size=2 * 1024 * 1024, max_files=3)


def test_environment_overrides_a_var_default(project: Path) -> None:
    path = write_config(
        project,
        """
        vars: {HOST: "${BIND_HOST:-127.0.0.1}"}
        processes: {web: {command: "serve ${HOST}"}}
        """,
    )
    config, _ = check_config(str(path), {"BIND_HOST": "0.0.0.0"})
    assert config is not None
    assert config.processes["web"].command == "serve 0.0.0.0"


def test_defaults_are_the_models(project: Path) -> None:
    path = write_config(project, "processes:\n  w:\n    command: run\n")
    config, findings = check_config(str(path), {})
    assert findings.as_dicts() == []
    assert config == ProjectConfig(
        root=project,
        config_path=path,
        config_files=(str(path),),
        processes={"w": ProcessSpec(name="w", command="run", cwd=str(project))},
    )


def test_logs_max_size_in_plain_bytes(project: Path) -> None:
    path = write_config(project, "logs: {max_size: 1048576}\n")
    config, _ = check_config(str(path), {})
    assert config is not None
    assert config.logs == LogSettings(max_size=1048576, max_files=5)


def test_merge_keys_share_settings(project: Path) -> None:
    path = write_config(
        project,
        """
        processes:
          a: &base {command: run a, stop_timeout: 3s}
          b:
            <<: *base
            command: run b
        """,
    )
    config, _ = check_config(str(path), {})
    assert config is not None
    assert config.processes["b"].command == "run b"
    assert config.processes["b"].stop_timeout == 3.0
