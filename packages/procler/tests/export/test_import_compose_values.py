"""import compose: every value copied is one Procler reads (durations, counts, signals,
restart policies), every other one a warning at its line:column, never a crash (exit 3) or a
config that does not load."""

from __future__ import annotations

from pathlib import Path

from procler_testkit.config_helpers import run_procler
from ruamel.yaml import YAML

from procler.config.load import check_config

EDGES = """\
services:
  web:
    image: nginx:1.27
    command: nginx -g 'daemon off;'
    environment: ["MODE=prod", "PRICE=5$$", "HOME_DIR=$HOME"]
    volumes:
      - ./site:/usr/share/nginx/html
      - type: tmpfs
        target: /cache
    ports: ["127.0.0.1:8080:80", "9000", {target: 443}, "x:y"]
    profiles: [front, edge]
    deploy: {replicas: 2, resources: {limits: {memory: 64m}}}
    labels: {team: web}
    stop_signal: SIGQUIT
    stop_grace_period: 1m30s
    restart: unless-stopped
    healthcheck:
      test: ["CMD", "curl", "-f", "http://localhost/"]
      interval: 1m30s
      timeout: 10us
      retries: many
      start_interval: 1s
  job:
    image: busybox
    healthcheck: {test: ["NONE"]}
    stop_signal: SIGPWR
    stop_grace_period: soon
    restart: weird
    deploy: {replicas: two}
    depends_on: [web]
x-extra: 1
"""


def test_values_procler_cannot_read_are_warned_and_the_config_loads(project: Path) -> None:
    (project / "compose.yaml").write_text(EDGES)
    code, env = run_procler(project, "import", "compose", "compose.yaml", "--dry-run")
    assert code == 0
    assert [(w["process"], w["field"], w["at"]) for w in env["data"]["warnings"]] == [
        ("", "x-extra", "compose.yaml:31:1"),
        ("web", "volumes", "compose.yaml:8:9"),
        ("web", "ports", "compose.yaml:10:13"),
        ("web", "ports", "compose.yaml:10:42"),
        ("web", "ports", "compose.yaml:10:57"),
        ("web", "healthcheck.timeout", "compose.yaml:20:16"),
        ("web", "healthcheck.retries", "compose.yaml:21:16"),
        ("web", "healthcheck.start_interval", "compose.yaml:22:7"),
        ("web", "restart", "compose.yaml:16:14"),
        ("web", "deploy.resources", "compose.yaml:12:27"),
        ("web", "labels", "compose.yaml:13:13"),
        ("job", "healthcheck.test", "compose.yaml:25:25"),
        ("job", "restart", "compose.yaml:28:14"),
        ("job", "deploy.replicas", "compose.yaml:29:24"),
        ("job", "stop_signal", "compose.yaml:26:18"),
        ("job", "stop_grace_period", "compose.yaml:27:24"),
    ]
    content = env["data"]["content"]
    web = YAML(typ="safe", pure=True).load(content)["processes"]["web"]
    assert web["healthcheck"] == {"exec": "curl -f http://localhost/", "interval": "1m30s"}
    assert (web["env"], web["ports"], web["replicas"], web["stop_timeout"]) == (
        {"MODE": "prod", "PRICE": "5$", "HOME_DIR": "${HOME}"},
        [80, 9000],
        2,
        "1m30s",
    )
    imported = project / "imported.yaml"
    imported.write_text(content)
    config, findings = check_config(str(imported), {"HOME": "/home/ada"})
    assert findings.as_dicts() == []
    assert config is not None
    web_0 = config.processes["web-0"]  # replicas: 2
    assert (web_0.stop_signal, web_0.namespaces, config.processes["job"].restart.policy) == (
        "QUIT",
        ("front", "edge"),
        "on-failure",
    )
