"""`replicas: N` in the config layer: instance specs, their variables and ports, name
collisions, dependencies on all or `min` instances, namespaces, and scaled counts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from procler_testkit.config_helpers import errors_of, run_procler, write_config

from procler.config.load import check_config
from procler.config.model import ProjectConfig

WORKERS = """
version: 1
processes:
  worker:
    command: run-worker --id ${PROCLER_REPLICA} --port ${PROCLER_PORT}
    replicas: 3
    port_base: 7000
    port_step: 10
    ports: ["90${PROCLER_REPLICA}0"]
    env: {NAME: "w${PROCLER_REPLICA}"}
    healthcheck: {tcp: {port: "${PROCLER_PORT}"}}
    namespace: jobs
  api:
    command: serve
    namespace: [web, public]
    depends_on:
      - {name: worker, condition: started, min: 2}
"""


def load(project: Path, text: str, scale: dict[str, Any] | None = None) -> ProjectConfig:
    config, findings = check_config(str(write_config(project, text)), {}, scale=scale)
    assert (findings.as_dicts(), config is not None) == ([], True)
    assert config is not None
    return config


def test_instances_get_their_index_port_and_typed_values(project: Path) -> None:
    config = load(project, WORKERS)
    assert list(config.processes) == ["worker-0", "worker-1", "worker-2", "api"]
    two = config.processes["worker-2"]
    assert two.command == "run-worker --id 2 --port 7020"
    assert (two.replica_of, two.replica, two.replicas, two.ports) == ("worker", 2, 1, (7020, 9020))
    assert dict(two.env) == {"NAME": "w2", "PROCLER_REPLICA": "2", "PROCLER_PORT": "7020"}
    assert two.healthcheck is not None and two.healthcheck.tcp is not None
    assert two.healthcheck.tcp.port == 7020
    assert (two.namespaces, config.processes["api"].namespaces) == (("jobs",), ("web", "public"))
    rset = config.replica_sets["worker"]
    assert (rset.declared, rset.count, rset.instances) == (
        3,
        3,
        ("worker-0", "worker-1", "worker-2"),
    )


def test_a_dependency_names_every_instance_or_at_least_min(project: Path) -> None:
    config = load(project, WORKERS)
    deps = config.processes["api"].depends_on
    assert [(d.name, d.replica_of, d.min) for d in deps] == [
        ("worker-0", "worker", 2),
        ("worker-1", "worker", 2),
        ("worker-2", "worker", 2),
    ]
    every = load(project, WORKERS.replace("{name: worker, condition: started, min: 2}", "worker"))
    assert [(d.name, d.min) for d in every.processes["api"].depends_on] == [
        ("worker-0", None),
        ("worker-1", None),
        ("worker-2", None),
    ]


NAME_TAKEN = """
version: 1
processes:
  web:
    command: serve
    replicas: 2
  web-1:
    command: other
"""
VARIABLES_AND_PORTS = """
version: 1
processes:
  web:
    command: serve
    replicas: 3
    port_base: 65530
    port_step: 3
  one:
    command: serve ${PROCLER_REPLICA}
  two:
    command: serve
    ports: ["80${PROCLER_REPLICA}0"]
"""
MIN_AND_NAMESPACE = """
version: 1
processes:
  worker: {command: work, replicas: 2}
  db: {command: db}
  api:
    command: serve
    namespace: "web, public"
    depends_on: [{name: worker, min: 3}, {name: db, min: 1}]
"""


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            NAME_TAKEN,
            [
                (
                    5,
                    15,
                    "processes.web.replicas",
                    "web's replica web-1 has the name of process web-1",
                )
            ],
            id="an instance name taken by another process: at replicas",
        ),
        pytest.param(
            VARIABLES_AND_PORTS,
            [
                (
                    6,
                    16,
                    "processes.web.port_base",
                    "web's replica 2 would get port 65536, above 65535",
                ),
                (9, 14, "processes.one.command", "undefined variable 'PROCLER_REPLICA'"),
                (
                    12,
                    13,
                    "processes.two.ports[0]",
                    "PROCLER_REPLICA and PROCLER_PORT are defined only in a process with replicas",
                ),
            ],
            id="replica variables and ports",
        ),
        pytest.param(
            MIN_AND_NAMESPACE,
            [
                (7, 16, "processes.api.namespace[0]", "invalid namespace 'web, public'"),
                (
                    8,
                    38,
                    "processes.api.depends_on[0].min",
                    "worker runs 2 replica(s): min 3 can never hold",
                ),
                (
                    8,
                    58,
                    "processes.api.depends_on[1].min",
                    "min counts replicas, and db has no replicas",
                ),
            ],
            id="min beyond the replicas, a bad namespace",
        ),
    ],
)
def test_replica_errors_are_findings_at_their_key(
    project: Path, text: str, expected: list[tuple[int, int, str, str]]
) -> None:
    path = write_config(project, text)
    found = [(e["line"], e["column"], e["path"], e["message"]) for e in errors_of(path)]
    assert found == expected
    code, answer = run_procler(project, "config", "validate")
    assert (code, [e["line"] for e in answer["data"]["errors"]]) == (2, [e[0] for e in expected])


def test_a_scaled_count_holds_until_the_config_count_changes(project: Path) -> None:
    scaled = {"worker": {"declared": 3, "count": 5}}
    config = load(project, WORKERS, scale=scaled)
    assert (config.replica_sets["worker"].count, len(config.processes)) == (5, 6)
    assert config.processes["api"].depends_on[-1].name == "worker-4"
    edited = load(project, WORKERS.replace("replicas: 3", "replicas: 2"), scale=scaled)
    assert list(edited.replica_sets["worker"].instances) == ["worker-0", "worker-1"]


def test_explain_and_validate_see_the_process_once(project: Path) -> None:
    write_config(project, WORKERS)
    code, answer = run_procler(project, "config", "explain")
    assert (code, answer["data"]["process_count"]) == (0, 2)
    assert "3 replicas (worker-0 to worker-2)" in answer["data"]["paragraph"]
    code, answer = run_procler(project, "config", "validate")
    assert (code, answer["data"]["summary"]) == (0, "2 processes, 0 groups, no errors")
