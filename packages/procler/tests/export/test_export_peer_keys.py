"""The keys peers' users brought (liveness, stop_command, autostart, stdin) handed to the
other engines: carried where the engine has them, a warning naming the field where not;
the files stay valid for their schemas."""

from __future__ import annotations

from pathlib import Path

from procler_testkit.export_helpers import load, validate_compose, validate_kubernetes, verify_units
from ruamel.yaml import YAML

from procler.export.compose import export_compose
from procler.export.fidelity import select
from procler.export.kubernetes import export_kubernetes
from procler.export.systemd import export_systemd

PEERS = """
processes:
  db:
    command: postgres -D data
    export: {image: "postgres:16"}
    healthcheck: {exec: "pg_isready", successes: 2}
    liveness: {tcp: {port: 5432}, interval: 5s, retries: 4}
    stop_command: pg_ctl stop -m fast -D data
  console:
    command: repl
    export: {image: "app:1"}
    stdin: true
    autostart: false
"""


def test_compose_warns_what_it_has_no_place_for(project: Path) -> None:
    config = load(project, PEERS)
    result = export_compose(config, select(config, (), None))
    assert [(w.process, w.field) for w in result.warnings] == [
        ("db", "liveness"),
        ("db", "stop_command"),
        ("console", "autostart"),
    ]
    document = YAML(typ="safe", pure=True).load(result.files["compose.yaml"])
    validate_compose(document)
    assert document["services"]["console"]["stdin_open"] is True


def test_kubernetes_carries_the_liveness_probe_the_stop_command_and_stdin(project: Path) -> None:
    config = load(project, PEERS)
    result = export_kubernetes(config, select(config, (), None))
    assert [(w.process, w.field) for w in result.warnings if w.field != "cwd"] == [
        ("db", "restart.policy"),
        ("console", "autostart"),
        ("console", "restart.policy"),
    ]
    documents = list(YAML(typ="safe", pure=True).load_all(result.files["kubernetes.yaml"]))
    for document in documents:
        validate_kubernetes(document)
    db = documents[0]["spec"]["template"]["spec"]["containers"][0]
    assert db["readinessProbe"]["successThreshold"] == 2
    assert db["livenessProbe"] == {
        "tcpSocket": {"port": 5432},
        "periodSeconds": 5,
        "timeoutSeconds": 5,
        "failureThreshold": 4,
        "initialDelaySeconds": 0,
    }
    assert db["lifecycle"] == {
        "preStop": {"exec": {"command": ["/bin/sh", "-c", "pg_ctl stop -m fast -D data"]}}
    }
    console = documents[1]["spec"]["template"]["spec"]["containers"][0]
    assert console["stdin"] is True


def test_systemd_runs_the_stop_command_as_exec_stop(project: Path, tmp_path: Path) -> None:
    config = load(project, PEERS)
    result = export_systemd(config, select(config, (), None))
    assert [(w.process, w.field) for w in result.warnings] == [
        ("db", "restart.backoff"),
        ("db", "liveness.tcp"),
        ("db", "healthcheck.exec"),
        ("console", "restart.backoff"),
        ("console", "stdin"),
        ("console", "autostart"),
    ]
    unit = next(text for name, text in result.files.items() if name.endswith("db.service"))
    assert 'ExecStop=/bin/sh -c "pg_ctl stop -m fast -D data"\n' in unit
    verify_units(result.files, tmp_path / "units")
