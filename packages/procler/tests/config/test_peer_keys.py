"""The keys other process managers' users reach for, as our config spells them: each
read into the model, and each mistake reported at its file, line and column."""

from __future__ import annotations

from pathlib import Path

from procler_testkit.config_helpers import errors_of, write_config

from procler.config.load import check_config
from procler.config.model import HealthCheck, TcpProbe


def findings(path: Path) -> list[tuple[int, int, str, str, str]]:
    return [
        (f["line"], f["column"], f["path"], f["message"], f["suggestion"]) for f in errors_of(path)
    ]


def test_liveness_beside_the_readiness_check(project: Path) -> None:
    path = write_config(
        project,
        """
        processes:
          api:
            command: serve
            ports: [8080]
            healthcheck: {test: "curl -f localhost:8080", successes: 2}
            liveness: {tcp: {}, interval: 5s, timeout: 1s, retries: 4, start_period: 30s}
        """,
    )
    config, found = check_config(str(path), {})
    assert not found and config is not None
    api = config.processes["api"]
    assert api.healthcheck == HealthCheck(kind="exec", exec="curl -f localhost:8080", successes=2)
    assert api.liveness == HealthCheck(
        kind="tcp",
        tcp=TcpProbe(port=8080),
        interval=5.0,
        timeout=1.0,
        retries=4,
        start_period=30.0,
    )


def test_liveness_mistakes_have_their_line_and_column(project: Path) -> None:
    path = write_config(
        project,
        """
        processes:
          api:
            command: serve
            liveness:
              exec: "true"
              log: ready
              successes: 0
              restart_on_unhealthy: true
        """,
    )
    assert findings(path) == [
        (
            5,
            7,
            "processes.api.liveness",
            "exec and log exclude each other",
            "keep only one of exec, http, tcp, log",
        ),
        (
            7,
            18,
            "processes.api.liveness.successes",
            "0 is out of range",
            "use a value from 1 to 1000",
        ),
        (
            8,
            7,
            "processes.api.liveness.restart_on_unhealthy",
            "unknown key 'restart_on_unhealthy'",
            "valid keys: exec, http, tcp, log, interval, timeout, retries, successes, start_period",
        ),
    ]
