"""The keys other process managers' users reach for, as our config spells them: each
read into the model, and each mistake reported at its file, line and column."""

from __future__ import annotations

from pathlib import Path

from procler_testkit.config_helpers import errors_of, write_config

from procler.config.load import check_config
from procler.config.model import HealthCheck, StopCommand, TcpProbe


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


def test_stop_command_and_its_process_compose_spelling(project: Path) -> None:
    path = write_config(
        project,
        """
        vars: {DATA: /srv/pg}
        processes:
          pg:
            command: postgres -D ${DATA}
            stop_command: pg_ctl stop -m fast -D ${DATA}
          web:
            command: nginx
            stop_command: {command: nginx -s quit, timeout: 5s}
            stop_timeout: 20s
          composed:
            command: serve
            shutdown: {command: serve --stop, timeout: 3s, signal: INT}
          signal_only:
            command: serve
            shutdown: {signal: SIGQUIT, timeout: 2s}
        """,
    )
    config, found = check_config(str(path), {})
    assert not found and config is not None
    spec = config.processes
    assert spec["pg"].stop_command == StopCommand("pg_ctl stop -m fast -D /srv/pg", None)
    assert (spec["web"].stop_command, spec["web"].stop_timeout) == (
        StopCommand("nginx -s quit", 5.0),
        20.0,
    )
    assert (spec["composed"].stop_command, spec["composed"].stop_signal) == (
        StopCommand("serve --stop", 3.0),
        "INT",
    )
    assert (spec["signal_only"].stop_command, spec["signal_only"].stop_signal) == (None, "QUIT")
    assert spec["signal_only"].stop_timeout == 2.0


def test_stop_command_mistakes_have_their_line_and_column(project: Path) -> None:
    path = write_config(
        project,
        """
        processes:
          both:
            command: serve
            stop_command: serve --stop
            shutdown: {command: serve --stop}
          twice:
            command: serve
            stop_signal: INT
            shutdown: {signal: QUIT}
          empty:
            command: serve
            stop_command: {timeout: 1s}
        """,
    )
    assert findings(path) == [
        (
            5,
            15,
            "processes.both.shutdown",
            "stop_command and shutdown both say how the process stops",
            "keep stop_command (shutdown is process-compose's spelling of it)",
        ),
        (
            9,
            24,
            "processes.twice.shutdown.signal",
            "shutdown.signal and stop_signal say the same thing",
            "keep stop_signal",
        ),
        (
            12,
            19,
            "processes.empty.stop_command",
            "missing required key 'command'",
            "add command: TEXT",
        ),
    ]


def test_autostart_and_stdin(project: Path) -> None:
    path = write_config(
        project,
        """
        processes:
          tool: {command: serve, autostart: false, stdin: true}
          api: {command: serve}
          box:
            context: docker
            docker: {image: "redis:7"}
            stdin: true
            autostart: no
        """,
    )
    config, _ = check_config(str(path), {})
    assert config is not None
    assert (config.processes["tool"].autostart, config.processes["tool"].stdin) == (False, True)
    assert (config.processes["api"].autostart, config.processes["api"].stdin) == (True, False)
    assert findings(path) == [
        (
            7,
            12,
            "processes.box.stdin",
            "stdin: true is for local processes (a container's stdin is not kept open)",
            "remove stdin, or run the process with context: local",
        ),
        (
            8,
            16,
            "processes.box.autostart",
            "expected true or false, got 'no' (no is a boolean only in YAML 1.1; Procler "
            "reads YAML 1.2, where it is text)",
            "write true or false",
        ),
    ]
