"""Variables are substituted everywhere a value is read: ports, health checks, durations."""

from __future__ import annotations

from pathlib import Path

from procler_testkit.config_helpers import errors_of, write_config

from procler.config.load import check_config
from procler.config.template import CONFIG_TEMPLATE

CONFIG = """
version: 1
vars:
  PORT: "${APP_PORT:-8080}"
  GRACE: 3s
processes:
  api:
    command: serve --port ${PORT}
    ports: ["${PORT}"]
    stop_timeout: ${GRACE}
    healthcheck:
      http: {port: "${PORT}", path: "/health/${PORT}", headers: {X-Port: "${PORT}"}}
      interval: ${GRACE}
  worker:
    command: work
    healthcheck: {log: 'ready on ${PORT}'}
  cache:
    command: cache
    ports: [6379]
    healthcheck: {tcp: {host: "${HOST:-127.0.0.1}"}}
"""


def test_ports_and_health_checks_take_variables(project: Path) -> None:
    path = write_config(project, CONFIG)
    config, findings = check_config(str(path), {"APP_PORT": "9001"})
    assert findings.as_dicts() == []
    assert config is not None
    api, worker = config.processes["api"], config.processes["worker"]
    assert api.ports == (9001,)
    assert api.stop_timeout == 3.0
    assert api.healthcheck is not None and api.healthcheck.http is not None
    assert api.healthcheck.http.url == "http://127.0.0.1:9001/health/9001"
    assert api.healthcheck.http.headers == (("X-Port", "9001"),)
    assert api.healthcheck.interval == 3.0
    assert worker.healthcheck is not None and worker.healthcheck.log == "ready on 9001"
    cache = config.processes["cache"].healthcheck
    assert cache is not None and cache.tcp is not None and cache.tcp.host == "127.0.0.1"


def test_a_variable_that_is_not_a_port_is_reported_where_it_is_used(project: Path) -> None:
    path = write_config(
        project,
        'vars: {PORT: "http"}\nprocesses:\n  a: {command: x, ports: ["${PORT}", "${NOPE}"]}\n',
    )
    assert [(e["line"], e["column"], e["message"]) for e in errors_of(path)] == [
        (3, 27, "expected an integer, got the value 'http'"),
        (3, 38, "undefined variable 'NOPE'"),
        (3, 38, "expected an integer, got the value '${NOPE}'"),
    ]


def test_the_template_names_its_port_once_and_uses_the_variable_everywhere(
    project: Path,
) -> None:
    assert CONFIG_TEMPLATE.count("8000") == 1  # only the var's default
    path = write_config(project, CONFIG_TEMPLATE)
    config, findings = check_config(str(path), {"PORT": "8123"})
    assert findings.as_dicts() == []
    assert config is not None
    web = config.processes["web"]
    assert (web.command, web.ports) == ("python3 -m http.server 8123 --bind 127.0.0.1", (8123,))
    assert web.healthcheck is not None and web.healthcheck.http is not None
    assert web.healthcheck.http.url == "http://127.0.0.1:8123/"
